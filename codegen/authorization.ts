import type { SpecModel, Target } from "./model.ts";

/**
 * The company role model behind `x-target`'s `role`, as the dispatcher applies it (src/rpc/target.ts,
 * src/auth/access.ts): one source for docs/authorization.md and for the
 * row-by-row test in test/authorization/, which checks the server against it.
 */

/** `company:member`: any current role. */
export const MEMBER = "member";
/** The company's owning user (the pair user_id, partner_id), counted as founder whatever its roles. */
export const OWNER = "owner";

/** The CompanyRoleKind values of the spec (empty when it has no such enumeration). */
export function companyRoleKinds(model: Pick<SpecModel, "schemas">): string[] {
  const kinds = model.schemas["CompanyRoleKind"]?.["enum"];
  return Array.isArray(kinds) ? kinds.filter((k): k is string => typeof k === "string") : [];
}

/** The roles `x-target.role` may name: `member` and every CompanyRoleKind. */
export function knownCompanyRoles(model: Pick<SpecModel, "schemas">): string[] {
  return [MEMBER, ...companyRoleKinds(model)];
}

/**
 * Whether a caller passes `required` holding `held`: its current CompanyRoleKinds in the company, plus `owner` when it
 * owns the company. `member` is any current role; another role must be held, except that a founder may act as
 * director. Administrators' sessions pass everything (not a role: see `CompanyRule`).
 */
export function passesCompanyRole(required: string, held: readonly string[]): boolean {
  const roles = new Set(held.map((r) => (r === OWNER ? "founder" : r)));
  if (required === MEMBER) return roles.size > 0;
  if (roles.has(required)) return true;
  return required === "director" && roles.has("founder");
}

/** A company-scoped method: the role its `x-target` needs and how the dispatcher finds the company. */
export interface CompanyRule {
  method: string;
  /** `member` or a CompanyRoleKind. */
  role: string;
  /** The target record, the param naming it and the record field it matches. */
  record: string;
  param: string;
  field: string;
  /** The record's company field (`x-company`). */
  companyField: string;
  /** The company field may name a resident the caller must own instead (else this variant). */
  foreignResident: "NotOwner" | "NotFound" | null;
  /** A resident's effective proxy holder passes as its owner. */
  proxy: boolean;
  /** With `proxy`: whether the proxy holder changes the record too, or only sees it (a write needs the owner). */
  proxyActs: boolean;
  /** The target's party, an alternative to the role (and, for a resident's record, to owning it). */
  party: { field: string; kind: "resident" | "user" } | null;
  /** The param is optional: absent, the call names no company and no rule applies. */
  optional: boolean;
  /** An administrator's session passes (false: checked as any caller). */
  adminBypass: boolean;
  operable: boolean;
  /** The CompanyAction the company's status must allow, with `operable`. */
  companyAction: string;
}

/** What the rule needs of a method: a registry entry (generated/policy.ts) has exactly these. */
export interface RuleInput {
  name: string;
  target?: Pick<
    Target,
    | "record"
    | "param"
    | "field"
    | "role"
    | "operable"
    | "companyAction"
    | "foreignResident"
    | "proxy"
    | "proxyActs"
    | "party"
    | "optional"
    | "adminBypass"
    | "company"
  > | null;
}

/** The company rule of a method (from the spec model or a registry entry), or null when it needs no company role. */
export function companyRule(m: RuleInput): CompanyRule | null {
  const t = m.target;
  if (!t?.role || !t.company) return null;
  return {
    method: m.name,
    role: t.role,
    record: t.record,
    param: t.param,
    field: t.field,
    companyField: t.company.field,
    foreignResident: t.foreignResident,
    proxy: t.proxy,
    proxyActs: t.proxyActs,
    party: t.party,
    optional: t.optional,
    adminBypass: t.adminBypass,
    operable: t.operable,
    companyAction: t.companyAction,
  };
}
