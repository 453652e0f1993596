import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { PartnerConfigurationRow, RegistrationRequestRow } from "../../../../generated/entities.ts";
import type { RegistrationRequestServiceHandlers } from "../../../../generated/handlers/index.ts";
import { isValidEmail, normalizeEmail } from "../../../domain/email.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";
import {
  clientName,
  contractIds,
  nextStatus,
  resellerPayload,
  type SignedRequestFields,
} from "../../../domain/registration-requests.ts";
import * as partners from "../../../repos/partners.ts";
import * as requests from "../../../repos/registration-requests.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import type { RpcContext } from "../../../rpc/context.ts";
import { errorsFor } from "../../../rpc/service-errors.ts";
import {
  resellerSignatureVerdict,
  SIGNATURE_MESSAGES,
  signedFieldsOf,
  toRequestDetail,
  toRequestResult,
  toRequestSummary,
} from "./common.ts";

/**
 * RegistrationRequestService: a partner's side of reseller registration requests, through its reseller key (x-auth
 * partner; reseller_id is caller-bound to the key's partner). Another partner's request is NotFound everywhere.
 */

type Handlers = RegistrationRequestServiceHandlers<RpcContext>;
const requestError = errorsFor("RegistrationRequestService", "RegistrationRequestError");

const refused = (r: Refusal<"InvalidInput" | "InvalidState">) => requestError(r.refusal, r.message, r.details);

/** The calling key's partner (the dispatcher admitted only reseller keys). */
async function callerPartner(ctx: RpcContext): Promise<PartnerConfigurationRow> {
  const partnerId = requireCaller(ctx).partnerId;
  const partner = partnerId ? await partners.findPartner(ctx.em, partnerId) : null;
  if (!partner) throw requestError.notFound("partner");
  return partner;
}

function clientEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) {
    throw requestError("InvalidInput", "client_email is not a valid address", { field: "client_email" });
  }
  return email;
}

function accepted<T>(result: T | Refusal<"InvalidInput">): T {
  if (isRefusal(result)) throw refused(result);
  return result;
}

/** Throws InvalidSignature unless `signature` is the partner's over `payload`. */
function requireResellerSignature(partner: PartnerConfigurationRow, payload: string, signature: string): void {
  const verdict = resellerSignatureVerdict(partner, payload, signature);
  if (verdict !== "valid") throw requestError("InvalidSignature", SIGNATURE_MESSAGES[verdict], { reason: verdict });
}

/** Linked records must exist and be the partner's (made by its wallet user, the user its reseller keys act as). */
async function requireLinks(
  ctx: RpcContext,
  partner: PartnerConfigurationRow,
  links: { kyc_session_id?: string | null; payment_id?: string | null; signed_contract_ids?: readonly string[] },
): Promise<void> {
  const wallet = partner.wallet_user_id;
  if (links.kyc_session_id && !(await requests.kycSessionOf(ctx.em, links.kyc_session_id, wallet))) {
    throw requestError("NotFound", "KYC session not found", { field: "kyc_session_id" });
  }
  if (links.payment_id && !(await requests.paymentOf(ctx.em, links.payment_id, wallet))) {
    throw requestError("NotFound", "payment not found", { field: "payment_id" });
  }
  const ids = links.signed_contract_ids ?? [];
  const found = new Set((await requests.signaturesOf(ctx.em, ids, wallet)).map((s) => s.sid));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw requestError("NotFound", "contract signature not found", { field: "signed_contract_ids", missing });
  }
}

async function requireNoOpenDuplicate(ctx: RpcContext, fields: SignedRequestFields, exceptId: string | null) {
  if (
    await requests.openRequestExists(ctx.em, fields.reseller_id, fields.client_email, fields.request_type, exceptId)
  ) {
    throw duplicate();
  }
}

const duplicate = () =>
  requestError("AlreadyExists", "the partner has an open request of this type for this client_email");

/** A unique index refusing the write (a concurrent duplicate) answers like the check before it. */
async function mappingDuplicate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw duplicate();
    throw err;
  }
}

export const submitRegistrationRequest: Handlers["submitRegistrationRequest"] = async (ctx, p) => {
  const partner = await callerPartner(ctx);
  const fields: SignedRequestFields = {
    reseller_id: partner.sid,
    request_type: p.request_type,
    client_email: clientEmail(p.client_email),
    client_name: accepted(clientName(p.client_name)),
    kyc_session_id: p.kyc_session_id ?? null,
    payment_id: p.payment_id ?? null,
    signed_contract_ids: accepted(contractIds(p.signed_contract_ids)),
  };
  const signedPayload = resellerPayload(fields);
  requireResellerSignature(partner, signedPayload, p.reseller_signature);
  if (fields.request_type === "company" && !partner.allow_company_creation) {
    throw requestError("Forbidden", "the partner may not create companies (allow_company_creation is off)");
  }
  await requireLinks(ctx, partner, fields);
  await requireNoOpenDuplicate(ctx, fields, null);
  const now = ctx.now();
  const row: RegistrationRequestRow = {
    sid: uuidv7(now),
    partner_id: partner.sid,
    request_type: fields.request_type,
    client_email: fields.client_email,
    client_name: fields.client_name,
    kyc_session_id: fields.kyc_session_id,
    payment_id: fields.payment_id,
    signed_contract_ids: [...fields.signed_contract_ids],
    reseller_signature: p.reseller_signature,
    signed_payload: signedPayload,
    status: "pending",
    reviewed_by: null,
    reviewed_at: null,
    admin_signature: null,
    rejection_reason: null,
    info_request_message: null,
    created_entity_id: null,
    created_at: now,
    updated_at: now,
  };
  return toRequestResult(await mappingDuplicate(() => requests.insertRequest(ctx.em, row)));
};

export const getRegistrationRequestStatus: Handlers["getRegistrationRequestStatus"] = async (ctx, { request_id }) => {
  const partner = await callerPartner(ctx);
  const row = await requests.findPartnerRequest(ctx.em, request_id, partner.sid);
  if (!row) throw requestError.notFound("registration request");
  return toRequestDetail(row);
};

/** The most requests the partner's list answers; the generic registrationrequest.list/find page through all. */
export const LIST_CAP = 500;

export const listRegistrationRequests: Handlers["listRegistrationRequests"] = async (ctx, { reseller_id }) => {
  const rows = await requests.newestPartnerRequests(ctx.em, reseller_id, LIST_CAP + 1);
  return { items: rows.slice(0, LIST_CAP).map(toRequestSummary), truncated: rows.length > LIST_CAP };
};

/**
 * Before approval: pending stays pending, needs_info returns to pending. The partner's signature attests the
 * submission (its payload is kept); a change is authenticated by the reseller key and audited by the dispatcher.
 */
export const updateRegistrationRequest: Handlers["updateRegistrationRequest"] = async (ctx, p) => {
  const partner = await callerPartner(ctx);
  const row = await requests.findPartnerRequest(ctx.em, p.request_id, partner.sid);
  if (!row) throw requestError.notFound("registration request");
  const next = nextStatus(row.status, "partner_update");
  if (isRefusal(next)) throw refused(next);
  const current = signedFieldsOf(row);
  const fields: SignedRequestFields = {
    ...current,
    ...(p.client_email !== undefined ? { client_email: clientEmail(p.client_email) } : {}),
    ...(p.client_name !== undefined ? { client_name: accepted(clientName(p.client_name)) } : {}),
    ...(p.kyc_session_id !== undefined ? { kyc_session_id: p.kyc_session_id } : {}),
    ...(p.payment_id !== undefined ? { payment_id: p.payment_id } : {}),
    ...(p.signed_contract_ids !== undefined
      ? { signed_contract_ids: accepted(contractIds(p.signed_contract_ids)) }
      : {}),
  };
  if (resellerPayload(fields) === resellerPayload(current)) {
    throw requestError("InvalidInput", "the update changes nothing");
  }
  await requireLinks(ctx, partner, {
    ...(p.kyc_session_id !== undefined ? { kyc_session_id: p.kyc_session_id } : {}),
    ...(p.payment_id !== undefined ? { payment_id: p.payment_id } : {}),
    ...(p.signed_contract_ids !== undefined ? { signed_contract_ids: p.signed_contract_ids } : {}),
  });
  if (fields.client_email !== current.client_email) await requireNoOpenDuplicate(ctx, fields, row.sid);
  const now = ctx.now();
  const changes = {
    client_email: fields.client_email,
    client_name: fields.client_name,
    kyc_session_id: fields.kyc_session_id,
    payment_id: fields.payment_id,
    signed_contract_ids: [...fields.signed_contract_ids],
    status: next,
    updated_at: now,
  };
  const moved = await mappingDuplicate(() => requests.moveRequest(ctx.em, row.sid, row.status, changes));
  if (moved === 0) throw requestError("InvalidState", "the request was moved meanwhile; read it again");
  return toRequestDetail({ ...row, ...changes });
};
