import type { RegistrationRequestStatus, RegistrationRequestType } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { canonicalPayload } from "./request-signature.ts";
import { isSingleLine } from "./text-render.ts";

/**
 * Reseller registration requests (seed 001 RegistrationRequestService and AdminRegistrationService): the fields a
 * partner signs, the review state moves (docs/decisions.md "Registration request states") and the prerequisite
 * check. Pure: no database, no clock.
 */

/** The fields the partner's signature covers, as stored (email trimmed and lower-cased, name trimmed). */
export interface SignedRequestFields {
  reseller_id: string;
  request_type: RegistrationRequestType;
  client_email: string;
  client_name: string;
  kyc_session_id: string | null;
  payment_id: string | null;
  signed_contract_ids: readonly string[];
}

export const RESELLER_PAYLOAD_TAG = "freezone.registration_request.v1";
export const APPROVAL_PAYLOAD_TAG = "freezone.registration_request.approve.v1";

/** The request's signed fields, in the order both payloads list them. */
function signedFields(f: SignedRequestFields) {
  return [
    f.reseller_id,
    f.request_type,
    f.client_email,
    f.client_name,
    f.kyc_session_id,
    f.payment_id,
    f.signed_contract_ids,
  ] as const;
}

/** What the reseller signs (SHA-256 of this text): see the submit method's description. */
export function resellerPayload(f: SignedRequestFields): string {
  return canonicalPayload([RESELLER_PAYLOAD_TAG, ...signedFields(f)]);
}

/** What the approving administrator signs: the stored request, the reseller's signature and the administrator. */
export function approvalPayload(
  requestId: string,
  f: SignedRequestFields,
  resellerSignature: string,
  adminEmail: string,
): string {
  return canonicalPayload([
    APPROVAL_PAYLOAD_TAG,
    requestId,
    ...signedFields(f),
    resellerSignature,
    adminEmail.trim().toLowerCase(),
  ]);
}

/** A client name as stored: trimmed, not blank, no control characters. */
export function clientName(raw: string): string | Refusal<"InvalidInput"> {
  const name = raw.trim();
  if (name.length === 0) return refuse("InvalidInput", "client_name must not be blank", { field: "client_name" });
  if (!isSingleLine(name)) {
    return refuse("InvalidInput", "client_name must not contain control characters", { field: "client_name" });
  }
  return name;
}

/** Signature receipts: no duplicates (the schema bounds count and length). */
export function contractIds(ids: readonly string[]): readonly string[] | Refusal<"InvalidInput"> {
  return new Set(ids).size === ids.length
    ? ids
    : refuse("InvalidInput", "signed_contract_ids must not repeat an id", { field: "signed_contract_ids" });
}

/** The resident's name fields from the client's full name: the first word, then the rest. */
export function splitName(fullName: string): { first_name: string; last_name: string } {
  const words = fullName.trim().split(/\s+/);
  return { first_name: words[0] ?? "", last_name: words.slice(1).join(" ") };
}

// ---- State moves (docs/decisions.md "Registration request states") ----

/** Everything that moves a request, besides submit (which creates it `pending`). */
export type RequestMove = "start_review" | "ask_info" | "partner_update" | "approve" | "reject";

const OPEN: readonly RegistrationRequestStatus[] = ["pending", "under_review", "needs_info"];

/** Statuses a request is open in: one open request per partner, client email and type. */
export const OPEN_STATUSES = OPEN;

const MOVE_TEXT: Record<RequestMove, string> = {
  start_review: "reviewed",
  ask_info: "sent back for information",
  partner_update: "changed by the partner",
  approve: "approved",
  reject: "rejected",
};

/**
 * The status a move leads to from `from`, or a refusal of a status the move cannot leave (`start_review` moves only
 * a pending request).
 */
export function nextStatus(
  from: RegistrationRequestStatus,
  move: RequestMove,
): RegistrationRequestStatus | Refusal<"InvalidState"> {
  const refused = () =>
    refuse("InvalidState", `a request in status ${from} cannot be ${MOVE_TEXT[move]}`, { status: from });
  switch (move) {
    case "start_review":
      return from === "pending" ? "under_review" : refused();
    case "ask_info":
      return OPEN.includes(from) ? "needs_info" : refused();
    case "partner_update":
      return from === "pending" || from === "needs_info" ? "pending" : refused();
    case "approve":
      return OPEN.includes(from) ? "approved" : refused();
    case "reject":
      return OPEN.includes(from) ? "rejected" : refused();
  }
}

/** A reason or message an administrator gives: trimmed, not blank. */
export function adminText(raw: string, field: string): string | Refusal<"InvalidInput"> {
  const text = raw.trim();
  return text.length > 0 ? text : refuse("InvalidInput", `${field} must not be blank`, { field });
}

// ---- Prerequisites ----

export type PrerequisiteName =
  | "kyc_complete"
  | "payment_confirmed"
  | "contracts_signed"
  | "client_email_available"
  | "partner_active"
  | "company_creation_allowed"
  | "reseller_signature_present";

export interface PrerequisiteCheck {
  name: PrerequisiteName;
  passed: boolean;
  detail: string | null;
}

/** What the check needs to know, loaded by the service. */
export interface PrerequisiteFacts {
  requestType: RegistrationRequestType;
  /** null: no session linked; otherwise its status, or "missing" when the id names no session of the partner. */
  kycStatus: string | null;
  /** KYC artifacts the partner attached to the request whose payload was not erased (the partner's own KYC evidence). */
  liveKycArtifacts: number;
  paymentStatus: string | null;
  /** Linked signature ids that name no signature of the partner. */
  unknownSignatures: readonly string[];
  /** Sids of active registration contracts required for the request's entity type. */
  requiredContracts: readonly string[];
  /** Contract sids the linked signatures cover. */
  signedContracts: readonly string[];
  emailInUse: boolean;
  partnerActive: boolean;
  partnerMayCreateCompanies: boolean;
  /** The request carries the partner's signature (verified when it was submitted). */
  signaturePresent: boolean;
}

const pass = (name: PrerequisiteName): PrerequisiteCheck => ({ name, passed: true, detail: null });
const fail = (name: PrerequisiteName, detail: string): PrerequisiteCheck => ({ name, passed: false, detail });

function linkedCheck(name: PrerequisiteName, what: string, status: string | null, wanted: string): PrerequisiteCheck {
  if (status === null) return fail(name, `no ${what} linked`);
  if (status === "missing") return fail(name, `the linked ${what} does not exist`);
  return status === wanted ? pass(name) : fail(name, `the ${what} is ${status}, not ${wanted}`);
}

/**
 * KYC is done by the platform (a linked session, which must be completed) or by the partner, whose evidence is its
 * KYC artifacts: with no session linked, one artifact still readable (not erased) for the administrator's review
 * passes (docs/decisions.md "Partner signing keys (issue 30)", the KYC item).
 */
function kycCheck(f: PrerequisiteFacts): PrerequisiteCheck {
  if (f.kycStatus === null && f.liveKycArtifacts > 0) return pass("kyc_complete");
  if (f.kycStatus === null) return fail("kyc_complete", "no KYC session linked and no KYC artifact attached");
  return linkedCheck("kyc_complete", "KYC session", f.kycStatus, "completed");
}

/** Every check, in a fixed order; `company_creation_allowed` only for company requests. */
export function prerequisiteChecks(f: PrerequisiteFacts): PrerequisiteCheck[] {
  const unsigned = f.requiredContracts.filter((c) => !f.signedContracts.includes(c));
  const checks: PrerequisiteCheck[] = [
    kycCheck(f),
    linkedCheck("payment_confirmed", "payment", f.paymentStatus, "confirmed"),
    f.unknownSignatures.length > 0
      ? fail("contracts_signed", `unknown signatures: ${f.unknownSignatures.join(", ")}`)
      : unsigned.length > 0
        ? fail("contracts_signed", `required contracts not signed: ${unsigned.join(", ")}`)
        : pass("contracts_signed"),
    f.emailInUse
      ? fail("client_email_available", `a ${f.requestType === "company" ? "company" : "resident"} uses this email`)
      : pass("client_email_available"),
    f.partnerActive ? pass("partner_active") : fail("partner_active", "the partner is deactivated"),
  ];
  if (f.requestType === "company") {
    checks.push(
      f.partnerMayCreateCompanies
        ? pass("company_creation_allowed")
        : fail("company_creation_allowed", "the partner may not create companies"),
    );
  }
  checks.push(
    f.signaturePresent
      ? pass("reseller_signature_present")
      : fail("reseller_signature_present", "the request carries no reseller signature"),
  );
  return checks;
}
