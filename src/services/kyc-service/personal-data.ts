import type { KycSessionRow } from "../../../generated/entities.ts";
import type { KycServiceHandlers } from "../../../generated/handlers/index.ts";
import type { KycProviderPersonalData } from "../../../generated/types.ts";
import { openSecret, sealSecret } from "../../auth/secret-box.ts";
import { fieldsToCapture, KYC_PERSONAL_FIELDS } from "../../domain/kyc.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { findPersonalData, upsertPersonalData } from "../../repos/kyc-personal-data.ts";
import { findKycResident } from "../../repos/kyc-residents.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { kycError } from "./common.ts";

type Handlers = KycServiceHandlers<RpcContext>;

/**
 * Keeps the verified fields of a session (completed, or held for review) as the configuration allows: only with the
 * feature on, only the fields whose toggle is on and that the provider sent, each sealed with AES-256-GCM under the
 * deployment key. The row names the session's scan reference it came from and replaces an earlier capture.
 */
export async function capturePersonalData(
  ctx: RpcContext,
  session: KycSessionRow,
  data: KycProviderPersonalData | null | undefined,
  now: Date,
): Promise<void> {
  const fields = fieldsToCapture(data, ctx.config.kyc.personalData);
  if (fields === null) return;
  const seal = (value: string | undefined) =>
    value === undefined ? null : sealSecret(ctx.config.encryptionKey, value);
  await upsertPersonalData(
    ctx.em,
    {
      resident_id: session.resident_id,
      user_id: session.user_id,
      kyc_provider_id: session.kycprovider_scan_ref ?? session.sid,
      dob: seal(fields.dob),
      nationality: seal(fields.nationality),
      document_number: seal(fields.document_number),
      document_type: seal(fields.document_type),
      document_expiry: seal(fields.document_expiry),
    },
    now,
  );
}

/** Owner or administrator (in a session); the dispatcher writes the kyc_personal_data_view audit row either way. */
export const getPersonalData: Handlers["getPersonalData"] = async (ctx, { resident_id }) => {
  const caller = requireCaller(ctx);
  const resident = await findKycResident(ctx.em, resident_id);
  if (!resident || !(isAdminSession(caller) || ownsResident(caller, resident))) {
    throw kycError.notFound("personal data");
  }
  const row = await findPersonalData(ctx.em, resident_id);
  if (!row) throw kycError.notFound("personal data");
  const open = (sealed: string | null) => (sealed === null ? null : openSecret(ctx.config.encryptionKey, sealed));
  const fields = Object.fromEntries(KYC_PERSONAL_FIELDS.map((f) => [f, open(row[f])])) as Record<
    (typeof KYC_PERSONAL_FIELDS)[number],
    string | null
  >;
  return {
    resident_id,
    user_id: resident.user_id,
    kyc_provider_id: row.kyc_provider_id,
    ...fields,
    captured_at: row.updated_at.toISOString(),
  };
};
