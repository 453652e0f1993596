import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { KybServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { kybFields, kybMoveSources, nextKybStatus } from "../../domain/kyb.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { KybProviderError, kybProvider } from "../../integrations/kyb/index.ts";
import * as registrations from "../../repos/external-companies.ts";
import { cursorPage, decodeCursor } from "../../repos/paging.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { kybError, loadVisibleRegistration, toRegistrationResult } from "./common.ts";

/** KybService, the submitter's side: submit, read, list, start the provider's check. */

type Handlers = KybServiceHandlers<RpcContext>;

const liveDuplicate = () =>
  kybError("AlreadyExists", "an open or approved registration exists for this jurisdiction and registration number");

export const submit: Handlers["submit"] = async (ctx, p) => {
  const caller = requireCaller(ctx);
  const fields = kybFields(p);
  if (isRefusal(fields)) throw kybError(fields.refusal, fields.message, fields.details);
  // The submitter's own resident acts for the company once approved; a reseller key has none of its own.
  const resident = caller.partnerId === null ? await registrations.personalResidentOf(ctx.em, caller.userId) : null;
  if (!resident) throw kybError("InvalidState", "submitting a company needs your own resident first");
  if (await registrations.liveRegistrationExists(ctx.em, fields.jurisdiction, fields.registration_number)) {
    throw liveDuplicate();
  }
  const now = ctx.now();
  try {
    const row = await registrations.insertRegistration(ctx.em, {
      sid: uuidv7(now),
      user_id: caller.userId,
      submitter_dr_id: resident.resident_id,
      ...fields,
      kyb_status: "pending",
      approved_by: null,
      linked_dr_id: null,
      kyb_scan_ref: null,
      kyb_provider: null,
      kyb_provider_status: null,
      kyb_checked_at: null,
      rejection_reason: null,
      created_at: now,
      updated_at: now,
    });
    return toRegistrationResult(row);
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw liveDuplicate();
    throw err;
  }
};

export const get: Handlers["get"] = async (ctx, { registration_id }) =>
  toRegistrationResult(await loadVisibleRegistration(ctx, registration_id));

const DEFAULT_LIMIT = 50;

/** The caller's registrations (none through a reseller key); an administrator's session sees all. */
export const list: Handlers["list"] = async (ctx, p) => {
  const caller = requireCaller(ctx);
  const limit = p.limit ?? DEFAULT_LIMIT;
  const position = decodeCursor(p.cursor, 1, () => kybError("InvalidInput", "cursor was not made by this server"));
  if (caller.partnerId !== null && !isAdminSession(caller)) return { items: [], next_cursor: null };
  const rows = await registrations.registrationsPage(
    ctx.em,
    {
      userId: isAdminSession(caller) ? null : caller.userId,
      status: p.status,
      beforeSid: position?.[0] ?? null,
    },
    limit,
  );
  return cursorPage(rows, limit, (r) => [r.sid], toRegistrationResult);
};

/** pending -> in_progress with the provider's session reference; a provider failure changes nothing. */
export const startCheck: Handlers["startCheck"] = async (ctx, { registration_id }) => {
  const row = await loadVisibleRegistration(ctx, registration_id);
  const next = nextKybStatus(row.kyb_status, "start_check");
  if (isRefusal(next)) throw kybError(next.refusal, next.message, next.details);
  const provider = kybProvider(ctx.config);
  let scanRef: string;
  try {
    scanRef = (
      await provider.startCheck({
        registrationId: row.sid,
        legalName: row.legal_name,
        jurisdiction: row.jurisdiction,
        registrationNumber: row.registration_number,
        now: ctx.now(),
      })
    ).scanRef;
  } catch (err) {
    if (err instanceof KybProviderError) {
      throw kybError("ProviderUnavailable", "the business-verification provider is unavailable; try again later");
    }
    throw err;
  }
  const changes = { kyb_status: next, kyb_scan_ref: scanRef, kyb_provider: provider.name, updated_at: ctx.now() };
  if ((await registrations.moveRegistration(ctx.em, row.sid, kybMoveSources("start_check"), changes)) === 0) {
    throw kybError("InvalidState", "the registration was moved meanwhile; read it again");
  }
  return toRegistrationResult({ ...row, ...changes });
};
