import type { EntityManager } from "@mikro-orm/postgresql";
import { type AnyRow, ENTITY_BY_RECORD } from "../../generated/entities.ts";
import {
  type ActsAsPolicy,
  COMPANY_LINKS,
  type CompanyLinkPolicy,
  type TargetOf,
  type TargetPolicy,
  type VisibilityPolicy,
} from "../../generated/policy.ts";
import { mayActAsResident } from "../auth/access.ts";
import { companyStatusRefusal } from "../domain/company-status.ts";
import { ownsResident } from "../domain/resident-access.ts";
import { effectiveStatus } from "../domain/resident-status.ts";
import {
  actingRefusal,
  companyStanding,
  type HeldRole,
  type Standing,
  satisfiesCompanyRole,
} from "../domain/target-access.ts";
import { findCompanyHead } from "../repos/companies.ts";
import { companyOwnership, currentCompanyRoles, currentRoleHolders } from "../repos/company-access.ts";
import { ownedResidentIds, residentStandings } from "../repos/digital-residents.ts";
import { type Caller, isAdminSession, type RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";
import { memberOfAnyPeriod } from "./visibility.ts";

/**
 * Target-first dispatch (`x-target`, `x-acts-as`; docs/authorization.md): after the params are validated and the
 * caller binding checked, the dispatcher loads the record the method acts on, finds the company it belongs to,
 * applies the company role rule, the company's status and the resident status gate, and hands the handler the row
 * as `ctx.target`. A handler never loads its own target to authorize it.
 */

export interface TargetEntry {
  name: string;
  errors: Record<string, string[]>;
  target: TargetPolicy | null;
  actsAs: ActsAsPolicy | null;
  mcp: { readOnly: boolean };
  visibility?: VisibilityPolicy;
}

type Type = Parameters<typeof RpcError.app>[0];

/** A call's context once checkTarget has run: the handler reads `ctx.target` (typed `Targeted<Ctx, Row>`). */
type WithTarget = RpcContext & { target?: TargetOf<AnyRow | null> };

const errorType = (entry: TargetEntry) => (Object.keys(entry.errors)[0] ?? "RpcError") as Type;

/** "GovernanceAction" -> "governance action", for NotFound messages. */
const words = (record: string) => record.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

const label = (record: string) => (record === "ZoneCompany" ? "company" : words(record.replace(/^Zone/, "")));

/** Administrators' sessions pass a target's checks (they correct records) unless the target says `adminBypass: false`. */
const bypasses = (t: TargetPolicy, caller: Caller) => t.adminBypass && isAdminSession(caller);

/** Whether the call acts (a write): only then does a role held by a resident who may not act stop counting. */
const acts = (entry: TargetEntry) => !entry.mcp.readOnly;

async function loadRow(em: EntityManager, record: string, field: string, value: string): Promise<AnyRow | null> {
  const entity = ENTITY_BY_RECORD[record as keyof typeof ENTITY_BY_RECORD];
  if (!entity) throw new Error(`x-target names unknown record ${record}`);
  return (await em.findOne(entity as never, { [field]: value } as never)) as AnyRow | null;
}

type Owner = { companyId: string | null; residentId: string | null };

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/** Where a row belongs by its record's `x-company`: a company, a resident, or (through another record) theirs. */
async function ownerOfRow(em: EntityManager, link: CompanyLinkPolicy, row: AnyRow, depth = 0): Promise<Owner> {
  const value = text(row[link.field]);
  if (link.through) {
    const next = COMPANY_LINKS[link.through];
    if (!next || value === null || depth > 3) return { companyId: null, residentId: null };
    const linked = await loadRow(em, link.through, "sid", value);
    return linked ? ownerOfRow(em, next, linked, depth + 1) : { companyId: null, residentId: null };
  }
  if (link.kind) {
    const kind = row[link.kind];
    if (kind === "resident") return { companyId: null, residentId: value };
    return { companyId: kind === "company" ? value : null, residentId: null };
  }
  if (value !== null) return { companyId: value, residentId: null };
  return { companyId: null, residentId: link.resident ? text(row[link.resident]) : null };
}

/** Where the target belongs: a company (by formatted id) or a resident. */
function ownerOf(em: EntityManager, t: TargetPolicy, row: AnyRow | null, value: string): Promise<Owner> | Owner {
  const link = t.company;
  if (!link) return { companyId: null, residentId: null };
  // The param names the company itself (ZoneCompany): absent, it may name a resident issuer instead.
  if (!row) return { companyId: null, residentId: t.foreignResident && t.field === link.field ? value : null };
  return ownerOfRow(em, link, row);
}

/** The caller's current roles in the company with each holder's status; the owner counts as founder. */
async function heldRoles(em: EntityManager, caller: Caller, companyId: string, now: Date): Promise<HeldRole[] | null> {
  const company = await companyOwnership(em, companyId);
  if (!company) return null;
  const owned = await ownedResidentIds(em, caller.userId, caller.partnerId);
  const holders = owned.length > 0 ? await currentRoleHolders(em, companyId, owned, now) : [];
  const isOwner = company.user_id === caller.userId && company.partner_id === caller.partnerId;
  const ids = [
    ...new Set([
      ...holders.map((h) => h.subject_id),
      ...(isOwner && company.owner_resident_id ? [company.owner_resident_id] : []),
    ]),
  ];
  const statuses = new Map((await residentStandings(em, ids)).map((r) => [r.resident_id, effectiveStatus(r, now)]));
  const held: HeldRole[] = holders.map((h) => ({ role: h.role, status: statuses.get(h.subject_id) ?? null }));
  if (isOwner) {
    held.push({
      role: "founder",
      status: company.owner_resident_id ? (statuses.get(company.owner_resident_id) ?? null) : null,
    });
  }
  return held;
}

/** Whether the caller is the target's party (`x-target.party`): the user, or a resident it may act as, the row names. */
async function isParty(ctx: RpcContext, caller: Caller, t: TargetPolicy, row: AnyRow | null): Promise<boolean> {
  const value = t.party && row ? text(row[t.party.field]) : null;
  if (!t.party || value === null) return false;
  if (t.party.kind === "user") return value === caller.userId;
  return mayActAsResident(ctx.em, caller, value, ctx.now());
}

/**
 * The caller's standing for the target's role; short of it, a member who is the target's party stands as a member
 * (`x-target.party`: the giver or initiator needs no director role to take back its own transfer).
 */
async function standingFor(
  entry: TargetEntry,
  ctx: RpcContext,
  caller: Caller,
  held: HeldRole[],
  row: AnyRow | null,
): Promise<Standing> {
  const t = entry.target as TargetPolicy;
  const standing = companyStanding(held, t.role as string, acts(entry));
  if (standing.kind === "allowed" || standing.kind === "none" || !t.party) return standing;
  return (await isParty(ctx, caller, t, row)) ? companyStanding(held, "member", acts(entry)) : standing;
}

async function checkCompany(
  entry: TargetEntry,
  ctx: RpcContext,
  caller: Caller,
  companyId: string,
  row: AnyRow | null,
): Promise<void> {
  const t = entry.target as TargetPolicy;
  const type = errorType(entry);
  // x-visibility: `member` is a member of any period; which records it reads is the visibility rule's decision.
  if (t.role === "member" && entry.visibility && !bypasses(t, caller)) {
    if (!(await memberOfAnyPeriod(ctx, caller, companyId))) throw RpcError.notFound(type, label(t.record));
  } else if (t.role && !bypasses(t, caller)) {
    const held = await heldRoles(ctx.em, caller, companyId, ctx.now());
    const standing = await standingFor(entry, ctx, caller, held ?? [], row);
    if (standing.kind === "none") throw RpcError.notFound(type, label(t.record));
    if (standing.kind === "short")
      throw RpcError.forbidden(type, "Forbidden", `needs the ${t.role} role in ${companyId}`);
    if (standing.kind === "inactive") {
      const r = standing.refusal;
      throw RpcError.app(
        type,
        r.refusal,
        `the ${t.role} role is held by a resident who may not act: ${r.message}`,
        r.details,
      );
    }
  }
  if (t.operable) {
    const head = await findCompanyHead(ctx.em, companyId);
    if (!head) throw RpcError.notFound(type, label(t.record));
    const refusal = companyStatusRefusal(head.status, t.companyAction);
    if (refusal) throw RpcError.app(type, refusal.refusal, refusal.message, refusal.details);
  }
}

async function checkResident(
  entry: TargetEntry,
  ctx: RpcContext,
  caller: Caller,
  residentId: string,
  row: AnyRow | null,
): Promise<void> {
  const t = entry.target as TargetPolicy;
  const type = errorType(entry);
  const [resident] = await residentStandings(ctx.em, [residentId]);
  if (!resident) throw RpcError.notFound(type, t.record === "ZoneCompany" ? "issuer" : label(t.record));
  const owns = bypasses(t, caller) || ownsResident(caller, resident);
  const mayAct = owns || (t.proxy && (await mayActAsResident(ctx.em, caller, residentId, ctx.now())));
  if (!mayAct) {
    if (t.foreignResident === "NotOwner") {
      throw RpcError.forbidden(type, "NotOwner", `${t.param} names a resident the caller does not own`);
    }
    throw RpcError.notFound(type, t.record === "ZoneCompany" ? "issuer" : label(t.record));
  }
  // `"proxy": "see"`: a proxy holder sees the resident's record, but only its owner (or the target's party) changes it.
  if (!owns && !t.proxyActs && acts(entry) && !(await isParty(ctx, caller, t, row))) {
    throw RpcError.forbidden(type, "Forbidden", "only the resident's owner may");
  }
  if (!acts(entry) || bypasses(t, caller)) return;
  const refusal = actingRefusal([effectiveStatus(resident, ctx.now())], "act");
  if (refusal) throw RpcError.app(type, refusal.refusal, refusal.message, refusal.details);
}

/**
 * `x-target`: loads the record (`NotFound` when absent), then its company's role rule (`NotFound` to outsiders,
 * `Forbidden` short of the role, `InvalidState` when only residents who may not act hold it) and status
 * (`operable`), or for a resident issuer the caller's ownership; sets `ctx.target`.
 */
export async function checkTarget(entry: TargetEntry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  const t = entry.target;
  const caller = ctx.caller;
  if (!t || !caller) return;
  const value = params[t.param];
  const type = errorType(entry);
  if (value === undefined && t.optional) {
    (ctx as WithTarget).target = { row: null, companyId: null, residentId: null };
    return;
  }
  if (typeof value !== "string") throw RpcError.notFound(type, label(t.record));
  const row = await loadRow(ctx.em, t.record, t.field, value);
  const owner = await ownerOf(ctx.em, t, row, value);
  if (!row && owner.residentId === null) throw RpcError.notFound(type, label(t.record));
  if (owner.companyId !== null) await checkCompany(entry, ctx, caller, owner.companyId, row);
  else if (owner.residentId !== null && (t.role || t.foreignResident)) {
    await checkResident(entry, ctx, caller, owner.residentId, row);
  } else if (t.role && !bypasses(t, caller)) throw RpcError.notFound(type, label(t.record));
  const target: TargetOf<AnyRow | null> = { row, ...owner };
  (ctx as WithTarget).target = target;
}

/**
 * `x-acts-as`: the resident the param names, or one of the caller's own, must be in a status that allows the action;
 * with `role`, the named resident must itself hold that role in the target's company.
 */
export async function checkActsAs(entry: TargetEntry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  await checkActingStatus(entry, ctx, params);
  await checkActorRole(entry, ctx, params);
}

/**
 * `x-acts-as` `role`: a rule on the resident the call records as its author (a report's generated_by, a filing's
 * submitted_by, an expense's decider, a transfer's approver), not on the caller, so it holds for administrators'
 * sessions too: the caller may act for the resident through a proxy while holding a lesser role, or none, itself.
 * The role is the resident's own: the company's owning user acting through a resident without it does not pass.
 * Neither the resident nor the caller holding any current role in the company: NotFound (the caller does not learn
 * the record exists).
 */
async function checkActorRole(entry: TargetEntry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  const a = entry.actsAs;
  const companyId = (ctx as WithTarget).target?.companyId;
  const caller = ctx.caller;
  if (!a?.role || !a.param || !companyId || !caller) return;
  const value = params[a.param];
  const now = ctx.now();
  const held = typeof value === "string" ? await currentCompanyRoles(ctx.em, companyId, [value], now) : [];
  if (satisfiesCompanyRole(held, a.role)) return;
  const type = errorType(entry);
  if (
    held.length === 0 &&
    !isAdminSession(caller) &&
    ((await heldRoles(ctx.em, caller, companyId, now)) ?? []).length === 0
  ) {
    throw RpcError.notFound(type, label(entry.target?.record ?? "ZoneCompany"));
  }
  throw RpcError.forbidden(type, "Forbidden", `${a.param} is not a current ${a.role} of the company`);
}

async function checkActingStatus(entry: TargetEntry, ctx: RpcContext, params: Record<string, unknown>): Promise<void> {
  const a = entry.actsAs;
  const caller = ctx.caller;
  // Administrators' sessions pass, as they pass the role rule: they correct records (docs/decisions.md).
  if (!a || !caller || isAdminSession(caller)) return;
  const now = ctx.now();
  let ids: string[];
  if (a.param) {
    // Only a resident the caller may act as (owns, or holds an effective proxy for) is gated here: a stranger's
    // resident is the handler's NotFound/NotOwner, so its status never leaks.
    const value = params[a.param];
    ids = typeof value === "string" && (await mayActAsResident(ctx.em, caller, value, now)) ? [value] : [];
  } else {
    ids = await ownedResidentIds(ctx.em, caller.userId, caller.partnerId);
  }
  const statuses = (await residentStandings(ctx.em, ids)).map((r) => effectiveStatus(r, now));
  const refusal = actingRefusal(statuses, a.action);
  if (refusal) throw RpcError.app(errorType(entry), refusal.refusal, refusal.message, refusal.details);
}
