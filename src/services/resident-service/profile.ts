import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { DigitalResidentRow } from "../../../generated/entities.ts";
import type { ResidentServiceHandlers } from "../../../generated/handlers/index.ts";
import type { CreateResidentData, UpdateResidentData } from "../../../generated/types.ts";
import { isValidEmail, normalizeEmail } from "../../domain/email.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { residentName, residentPhone } from "../../domain/resident-profile.ts";
import { effectiveStatus, statusRefusal } from "../../domain/resident-status.ts";
import {
  deletePendingResident,
  hasPersonalResident,
  type ResidentChanges,
  updateResidentIf,
} from "../../repos/digital-residents.ts";
import { registrationPayments, residentHasHistory } from "../../repos/registration.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { createResident } from "../shared/new-resident.ts";
import { loadResident, refused, residentError, toResidentResult } from "./common.ts";

type Handlers = ResidentServiceHandlers<RpcContext>;
type ProfileFields = Partial<
  Pick<
    DigitalResidentRow,
    "email" | "first_name" | "last_name" | "phone" | "is_tanzanian_citizen" | "physical_residence_zanzibar"
  >
>;

/** The given profile fields as stored (trimmed names, lower-case email, compact phone), or InvalidInput. */
function profileFields(data: Partial<CreateResidentData & UpdateResidentData>): ProfileFields {
  const out: ProfileFields = {};
  if (data.email !== undefined) {
    const email = normalizeEmail(data.email);
    if (!isValidEmail(email)) throw residentError("InvalidInput", "email is not a valid address", { field: "email" });
    out.email = email;
  }
  for (const field of ["first_name", "last_name"] as const) {
    const raw = data[field];
    if (raw === undefined) continue;
    const name = residentName(field, raw);
    if (isRefusal(name)) throw refused(name);
    out[field] = name;
  }
  if (data.phone !== undefined) {
    const phone = residentPhone(data.phone);
    if (isRefusal(phone)) throw refused(phone);
    out.phone = phone;
  }
  if (data.is_tanzanian_citizen !== undefined) out.is_tanzanian_citizen = data.is_tanzanian_citizen;
  if (data.physical_residence_zanzibar !== undefined) {
    out.physical_residence_zanzibar = data.physical_residence_zanzibar;
  }
  return out;
}

/** An administrator's write to someone else's resident leaves an AdminAction. */
function recordIfAdmin(ctx: RpcContext, row: DigitalResidentRow, action: string, details: Record<string, unknown>) {
  const caller = requireCaller(ctx);
  if (!isAdminSession(caller) || ownsResident(caller, row)) return;
  recordAdminAction(ctx, { action, targetType: "resident", targetId: row.resident_id, details });
}

export const create: Handlers["create"] = async (ctx, { user_id, data }) => {
  const caller = requireCaller(ctx);
  if (caller.partnerId !== null) {
    throw residentError("Forbidden", "partner residents come from approved registration requests, not from create");
  }
  const fields = profileFields(data);
  const duplicate = () => residentError("AlreadyExists", "the user has a personal resident already");
  if (await hasPersonalResident(ctx.em, user_id)) throw duplicate();
  let row: DigitalResidentRow;
  try {
    row = await createResident(ctx, {
      user_id,
      partner_id: null,
      email: fields.email ?? "",
      first_name: fields.first_name ?? "",
      last_name: fields.last_name ?? "",
      phone: fields.phone ?? "",
      resident_type: "personal",
      source: "direct",
      subscription_plan: data.subscription_plan ?? null,
      auto_renewal: data.auto_renewal ?? false,
      is_tanzanian_citizen: fields.is_tanzanian_citizen ?? null,
      physical_residence_zanzibar: fields.physical_residence_zanzibar ?? null,
    });
  } catch (err) {
    // Two concurrent creations for one user: the partial unique index refuses the second.
    if (err instanceof UniqueConstraintViolationException) throw duplicate();
    throw err;
  }
  return toResidentResult(row, ctx.now());
};

export const update: Handlers["update"] = async (ctx, { resident_id, data }) => {
  const row = await loadResident(ctx, resident_id, "change");
  const now = ctx.now();
  const changes: ResidentChanges = profileFields(data);
  if (Object.keys(changes).length === 0) throw residentError("InvalidInput", "no field to change");
  const renamed = (["first_name", "last_name"] as const).filter(
    (f) => changes[f] !== undefined && changes[f] !== row[f],
  );
  if (row.kyc_provider_id !== "" && renamed.length > 0) {
    throw residentError("InvalidState", "names are fixed once the identity is verified", { fields: renamed });
  }
  if ((await updateResidentIf(ctx.em, resident_id, [row.status], changes, now)) === 0) {
    throw residentError("InvalidState", "the resident changed meanwhile; read it again");
  }
  recordIfAdmin(ctx, row, "update_resident", { fields: Object.keys(changes) });
  return toResidentResult({ ...row, ...changes, updated_at: now }, now);
};

export const remove: Handlers["delete"] = async (ctx, { resident_id }) => {
  const row = await loadResident(ctx, resident_id, "change");
  const now = ctx.now();
  const notPending = statusRefusal(effectiveStatus(row, now), "delete");
  if (notPending) throw refused(notPending);
  const payments = await registrationPayments(ctx.em, null, "resident_subscription", [row.resident_id, row.sid]);
  const history =
    row.subscription_start_date !== null
      ? "a subscription"
      : payments.some((p) => p.status === "confirmed")
        ? "a confirmed payment"
        : await residentHasHistory(ctx.em, row.resident_id, row.sid);
  if (history !== null) throw residentError("InvalidState", `the resident is kept: it has ${history}`);
  if ((await deletePendingResident(ctx.em, resident_id)) === 0) {
    throw residentError("InvalidState", "the resident changed meanwhile; read it again");
  }
  recordIfAdmin(ctx, row, "delete_resident", { email: row.email });
  return { sid: row.sid, deleted: true };
};
