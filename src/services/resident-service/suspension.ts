import type { ResidentServiceHandlers } from "../../../generated/handlers/index.ts";
import {
  effectiveStatus,
  reinstatementRefusal,
  statusFromDates,
  suspensionRefusal,
} from "../../domain/resident-status.ts";
import { findResident, updateResidentIf } from "../../repos/digital-residents.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { refused, residentError, toResidentResult } from "./common.ts";

/** Administrator suspension (the dispatcher checked the administrator session): each move is an AdminAction. */

type Handlers = ResidentServiceHandlers<RpcContext>;

function reasonOf(raw: string): string {
  const reason = raw.trim();
  if (reason.length === 0) throw residentError("InvalidInput", "reason must not be blank", { field: "reason" });
  return reason;
}

async function load(ctx: RpcContext, residentId: string) {
  const row = await findResident(ctx.em, residentId);
  if (!row) throw residentError.notFound("resident");
  return row;
}

const raced = () => residentError("InvalidState", "the resident changed meanwhile; read it again");

export const suspend: Handlers["suspend"] = async (ctx, { resident_id, reason }) => {
  const why = reasonOf(reason);
  const row = await load(ctx, resident_id);
  const refusal = suspensionRefusal(row.status);
  if (refusal) throw refused(refusal);
  const now = ctx.now();
  if ((await updateResidentIf(ctx.em, resident_id, [row.status], { status: "suspended" }, now)) === 0) throw raced();
  recordAdminAction(ctx, {
    action: "suspend_resident",
    targetType: "resident",
    targetId: resident_id,
    details: { reason: why, previous_status: effectiveStatus(row, now) },
  });
  return toResidentResult({ ...row, status: "suspended", updated_at: now }, now);
};

/** Back to where the resident's dates put it: pending if never activated, active within its period, else expired. */
export const reinstate: Handlers["reinstate"] = async (ctx, { resident_id, reason }) => {
  const why = reasonOf(reason);
  const row = await load(ctx, resident_id);
  const refusal = reinstatementRefusal(row.status);
  if (refusal) throw refused(refusal);
  const now = ctx.now();
  const status = statusFromDates(row, now);
  if ((await updateResidentIf(ctx.em, resident_id, ["suspended"], { status }, now)) === 0) throw raced();
  recordAdminAction(ctx, {
    action: "reinstate_resident",
    targetType: "resident",
    targetId: resident_id,
    details: { reason: why, status },
  });
  return toResidentResult({ ...row, status, updated_at: now }, now);
};
