import type { VisibilityPolicy } from "../../generated/policy.ts";
import type { VisibilityDecision } from "../domain/document-visibility.ts";
import { companyOwnership } from "../repos/company-access.ts";
import { callerMayView, callerSubjects, heldAnyRole, mayViewMany } from "../repos/document-audiences.ts";
import { auditDetailsOf, withAuditDetails } from "./audit-marks.ts";
import { type Caller, isAdminSession, type RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";

/**
 * `x-visibility` (issue 30; codegen/visibility.ts): reads of company records answered by the DocumentAudience rule,
 * the one documentaudienceservice.can_view answers (src/domain/document-visibility.ts, src/repos/document-audiences.ts
 * `mayView`). The x-target role `member` of such a read admits a member of any period (`memberOfAnyPeriod`); then a
 * document the param names must be viewable (`checkVisibility`, NotFound otherwise), and a list keeps the records
 * the caller may view (`visibleItems`). An administrator's session reads every record.
 */

export interface VisibilityEntry {
  name: string;
  errors: Record<string, string[]>;
  visibility?: VisibilityPolicy;
}

type Type = Parameters<typeof RpcError.app>[0];
const errorType = (entry: VisibilityEntry) => (Object.keys(entry.errors)[0] ?? "RpcError") as Type;

/** The company of the call's target, as checkTarget found it. */
const targetCompany = (ctx: RpcContext) => (ctx as { target?: { companyId: string | null } }).target?.companyId ?? null;

/**
 * Whether the caller was ever a member of the company: it owns it, or one of its subjects (callerSubjects) holds or
 * held a role there, whatever the window. Past holders read what the rule lets them; strangers get NotFound.
 */
export async function memberOfAnyPeriod(ctx: RpcContext, caller: Caller, companyId: string): Promise<boolean> {
  const company = await companyOwnership(ctx.em, companyId);
  if (!company) return false;
  if (company.user_id === caller.userId && company.partner_id === caller.partnerId) return true;
  return heldAnyRole(ctx.em, companyId, await callerSubjects(ctx.em, caller, ctx.now()));
}

/** The decision in the view_document audit row's words (as businessdocumentservice.get_document writes it). */
function auditDetails(decision: VisibilityDecision | null): Record<string, unknown> {
  return {
    visibility: decision ? decision.reason : "administrator",
    audience_id: decision?.audience?.sid ?? null,
    matched_role_id: decision?.role?.sid ?? null,
    matched_subject_id: decision?.role?.subject_id ?? null,
  };
}

const DECIDED = new WeakMap<RpcContext, Record<string, unknown>>();

/** `x-visibility.param`: the document the param names must be one the caller may view, else NotFound. */
export async function checkVisibility(
  entry: VisibilityEntry,
  ctx: RpcContext,
  params: Record<string, unknown>,
): Promise<void> {
  const v = entry.visibility;
  const caller = ctx.caller;
  if (!v?.param || !caller) return;
  const ref = params[v.param];
  if (isAdminSession(caller)) {
    DECIDED.set(ctx, auditDetails(null));
    return;
  }
  const decision =
    typeof ref === "string"
      ? await callerMayView(ctx.em, caller, { documentType: v.kind, documentRef: ref }, ctx.now())
      : null;
  const details = auditDetails(decision ?? { canView: false, reason: "no_audience_row", audience: null, role: null });
  if (!decision?.canView)
    throw withAuditDetails(RpcError.notFound(errorType(entry), v.kind.replace("_", " ")), details);
  DECIDED.set(ctx, details);
}

/** The handler's answer with the decision that let it through, for the audit row (when it set none itself). */
export function withVisibilityDetails<T>(ctx: RpcContext, answer: T): T {
  const details = DECIDED.get(ctx);
  if (!details || typeof answer !== "object" || answer === null) return answer;
  if (Object.keys(auditDetailsOf(answer)).length > 0) return answer;
  return withAuditDetails(answer, details);
}

/** `x-visibility.items`: the result's records (each by `sid`) the caller may view; the rest are left out. */
export async function visibleItems(entry: VisibilityEntry, ctx: RpcContext, answer: unknown): Promise<unknown> {
  const v = entry.visibility;
  const caller = ctx.caller;
  const companyId = targetCompany(ctx);
  // A list of a resident's records (a person-to-person invoice issuer) has no company and no audience rows.
  if (!v?.items || !caller || companyId === null || isAdminSession(caller)) return answer;
  if (typeof answer !== "object" || answer === null) return answer;
  const items = (answer as Record<string, unknown>)[v.items];
  if (!Array.isArray(items)) return answer;
  const refs = items.map((i) => (i as { sid?: unknown }).sid).filter((s): s is string => typeof s === "string");
  const subjects = await callerSubjects(ctx.em, caller, ctx.now());
  const decisions = await mayViewMany(ctx.em, v.kind, refs, subjects);
  const kept = items.filter((i) => decisions.get((i as { sid: string }).sid)?.canView === true);
  return { ...(answer as Record<string, unknown>), [v.items]: kept };
}
