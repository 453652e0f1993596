import type { IssuerRole, MethodModel, SpecModel } from "./model.ts";

/**
 * The company role model behind `x-auth: company:<role>` and `x-issuer-role`, as the dispatcher applies it
 * (src/rpc/dispatcher.ts checkCompanyRole, src/auth/access.ts): one source for docs/authorization.md and for the
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

/** The roles `company:<role>` and `x-issuer-role` may name: `member` and every CompanyRoleKind. */
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

/** Where the company of a company-scoped method comes from, and who checks the role. */
export type CompanySource =
  /** The dispatcher, before the handler: `param` is `company_id` or `fzc_id`. */
  | { by: "dispatcher"; param: string }
  /** The handler, from the record `param` names (the method takes no company id). */
  | { by: "record"; param: string }
  /** The handler, from `x-issuer-role`: a company or cooperative, or a resident the caller must own. */
  | { by: "issuer"; param: string; foreignResident: "NotOwner" | "NotFound" };

export interface CompanyRule {
  method: string;
  /** `member` or a CompanyRoleKind. */
  role: string;
  source: CompanySource;
}

/** What the rule needs of a method: a registry entry (generated/policy.ts) has exactly these. */
export interface RuleInput {
  name: string;
  auth: string;
  issuerRole?: IssuerRole | null;
  paramNames: string[];
}

/** A spec model method as a `RuleInput`. */
export function ruleInput(m: MethodModel): RuleInput {
  return { name: m.name, auth: m.auth, issuerRole: m.issuerRole, paramNames: m.params.map((p) => p.name) };
}

/** The company rule of a method (from the spec model or a registry entry), or null when it is not company-scoped. */
export function companyRule(m: RuleInput): CompanyRule | null {
  const names = m.paramNames;
  if (m.issuerRole) {
    const { param, role, foreignResident } = m.issuerRole;
    return { method: m.name, role, source: { by: "issuer", param, foreignResident } };
  }
  if (!m.auth.startsWith("company:")) return null;
  const role = m.auth.slice("company:".length);
  const param = ["company_id", "fzc_id"].find((p) => names.includes(p));
  if (param) return { method: m.name, role, source: { by: "dispatcher", param } };
  const record = names.find((p) => p.endsWith("_id")) ?? names[0] ?? "";
  return { method: m.name, role, source: { by: "record", param: record } };
}
