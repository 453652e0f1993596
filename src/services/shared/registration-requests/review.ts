import type { RegistrationRequestRow } from "../../../../generated/entities.ts";
import type { AdminRegistrationServiceHandlers } from "../../../../generated/handlers/index.ts";
import type { KycArtifactSummary, RegistrationSignatureSummary } from "../../../../generated/types.ts";
import { pageWindow, toPage } from "../../../repos/paging.ts";
import * as partners from "../../../repos/partners.ts";
import * as requests from "../../../repos/registration-requests.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { errorsFor } from "../../../rpc/service-errors.ts";
import { checkPrerequisites, toRequestDetail, toRequestSummary } from "./common.ts";

/**
 * AdminRegistrationService, the review half: the queue, a request with what it links, and the prerequisite check
 * (read-only). Administrators in a session only (the dispatcher checked).
 */

type Handlers = AdminRegistrationServiceHandlers<RpcContext>;
export const adminRegistrationError = errorsFor("AdminRegistrationService", "AdminRegistrationError");

export async function loadRequest(ctx: RpcContext, requestId: string): Promise<RegistrationRequestRow> {
  const row = await requests.findRequest(ctx.em, requestId);
  if (!row) throw adminRegistrationError.notFound("registration request");
  return row;
}

export const listRegistrationRequests: Handlers["listRegistrationRequests"] = async (ctx, p) => {
  const window = pageWindow(p);
  const { rows, total } = await requests.requestsPage(ctx.em, p.status, window.offset, window.pageSize);
  return toPage(rows.map(toRequestSummary), total, window);
};

export const getRegistrationDetails: Handlers["getRegistrationDetails"] = async (ctx, { request_id }) => {
  const row = await loadRequest(ctx, request_id);
  const wallet = (await partners.findPartner(ctx.em, row.partner_id))?.wallet_user_id ?? "";
  const kyc = row.kyc_session_id ? await requests.kycSessionOf(ctx.em, row.kyc_session_id, wallet) : null;
  const payment = row.payment_id ? await requests.paymentOf(ctx.em, row.payment_id, wallet) : null;
  const signatures = new Map(
    (await requests.signaturesOf(ctx.em, row.signed_contract_ids, wallet)).map((s) => [s.sid, s]),
  );
  const contracts = row.signed_contract_ids.map((id): RegistrationSignatureSummary => {
    const s = signatures.get(id);
    return {
      signature_id: id,
      receipt_id: s?.receipt_id ?? null,
      contract_id: s?.contract_id ?? null,
      contract_version: s?.contract_version ?? null,
      signed_at: s?.signed_at.toISOString() ?? null,
      found: s !== undefined,
    };
  });
  const artifacts = (await requests.artifactsOf(ctx.em, row.sid)).map(
    (a): KycArtifactSummary => ({
      attestation_id: a.sid,
      key_id: a.key_id,
      payload_hash: a.payload_hash,
      encryption_scheme: a.encryption_scheme,
      erased: a.erased_at !== null,
      erased_at: a.erased_at?.toISOString() ?? null,
      created_at: a.created_at.toISOString(),
    }),
  );
  return {
    ...toRequestDetail(row),
    kyc: kyc && {
      session_id: kyc.sid,
      resident_id: kyc.resident_id,
      status: kyc.status,
      identity_verified: kyc.identity_verified,
      document_verified: kyc.document_verified,
      liveness_verified: kyc.liveness_verified,
      verification_level: kyc.verification_level,
      verified_at: kyc.verified_at?.toISOString() ?? null,
    },
    payment: payment && {
      payment_id: payment.sid,
      status: payment.status,
      payment_type: payment.payment_type,
      amount: payment.amount,
      currency: payment.currency,
      payment_purpose: payment.payment_purpose,
      confirmed_at: payment.confirmed_at?.toISOString() ?? null,
    },
    contracts,
    kyc_artifacts: artifacts,
  };
};

/** Judges the request as it stands: a check, it writes nothing (the review starts with start_review, decisions.ts). */
export const verifyRegistrationPrerequisites: Handlers["verifyRegistrationPrerequisites"] = async (
  ctx,
  { request_id },
) => {
  const row = await loadRequest(ctx, request_id);
  const checks = await checkPrerequisites(ctx, row, await partners.findPartner(ctx.em, row.partner_id));
  return {
    request_id: row.sid,
    all_passed: checks.every((c) => c.passed),
    status: row.status,
    checks,
    checked_at: ctx.now().toISOString(),
  };
};
