import type { DigitalResidentRow, PaymentRow } from "../../../generated/entities.ts";
import type { EntityType } from "../../../generated/types.ts";
import {
  type ActivationFacts,
  type ActivationPayment,
  type FlowFacts,
  kycSessionOpen,
} from "../../domain/activation.ts";
import { personalInfoComplete } from "../../domain/resident-profile.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { findOwnResident, type OwnerCaller } from "../../repos/digital-residents.ts";
import {
  type KycSessionFacts,
  kycSessionsOf,
  ownsActiveCompany,
  registrationPayments,
  requiredContracts,
  residentSignatures,
} from "../../repos/registration.ts";
import { findUserById } from "../../repos/users.ts";
import type { RpcContext } from "../../rpc/context.ts";

/**
 * The records the registration flow is computed from (docs/decisions.md "Registration flow"): the account, the
 * resident, its registration payments, KYC sessions and contract signatures. Loaded here, judged by
 * src/domain/activation.ts.
 */

const OPEN_PAYMENT = new Set(["pending", "confirming"]);

/** A payment waiting for confirmation (not past its expiry). */
function paymentOpen(p: PaymentRow, now: Date): boolean {
  return OPEN_PAYMENT.has(p.status) && p.expires_at.getTime() > now.getTime();
}

export interface ResidentRecords {
  resident: DigitalResidentRow;
  /** The account's email is verified (a partner-onboarded resident has no account: its partner vouched). */
  identity: boolean;
  /** The resident's resident_subscription payments, newest first. */
  payments: PaymentRow[];
  kycSessions: KycSessionFacts[];
  contractsSigned: boolean;
}

async function emailVerified(ctx: RpcContext, userId: string | null): Promise<boolean> {
  if (userId === null) return true;
  return (await findUserById(ctx.em, userId))?.email_verified === true;
}

export async function residentRecords(ctx: RpcContext, resident: DigitalResidentRow): Promise<ResidentRecords> {
  const now = ctx.now();
  const contracts = await requiredContracts(ctx.em, "resident", now);
  const signed = await residentSignatures(
    ctx.em,
    resident.user_id,
    resident.sid,
    contracts.map((c) => c.sid),
  );
  return {
    resident,
    identity: await emailVerified(ctx, resident.user_id),
    payments: await registrationPayments(ctx.em, null, "resident_subscription", [resident.resident_id, resident.sid]),
    kycSessions: await kycSessionsOf(ctx.em, resident.resident_id),
    contractsSigned: contracts.every((c) =>
      signed.some((s) => s.contract_id === c.sid && s.contract_version === c.version),
    ),
  };
}

export function confirmedPayment(payments: PaymentRow[]): PaymentRow | null {
  return payments.find((p) => p.status === "confirmed") ?? null;
}

/**
 * The activation rule's input. `payment` null: the resident's newest confirmed registration payment, if any;
 * creditservice.activate_resident passes its wallet debit (`{ kind: "wallet", plan }`).
 */
export function activationFacts(records: ResidentRecords, now: Date, payment?: ActivationPayment): ActivationFacts {
  const { resident } = records;
  const paid = confirmedPayment(records.payments);
  return {
    status: effectiveStatus(resident, now),
    identity: records.identity,
    personalInfo: personalInfoComplete(resident),
    payment:
      payment ??
      (paid
        ? { kind: "payment", paymentId: paid.sid, plan: paid.subscription_plan, autoRenewal: paid.auto_renewal }
        : null),
    kyc: records.kycSessions.some((s) => s.status === "completed"),
    contracts: records.contractsSigned,
    residentPlan: resident.subscription_plan,
    residentAutoRenewal: resident.auto_renewal,
  };
}

/** The flow facts of a user for one entity type. */
export async function flowFacts(
  ctx: RpcContext,
  caller: OwnerCaller,
  entityType: EntityType,
): Promise<{ facts: FlowFacts; resident: DigitalResidentRow | null }> {
  const now = ctx.now();
  const resident = await findOwnResident(ctx.em, caller);
  const records = resident ? await residentRecords(ctx, resident) : null;
  const kyc = records?.kycSessions ?? [];
  const base = {
    identity: records?.identity ?? (await emailVerified(ctx, caller.userId)),
    personalInfo: resident !== null && personalInfoComplete(resident),
    kyc: kyc.some((s) => s.status === "completed"),
    kycPending: kyc.some((s) => kycSessionOpen(s, now)),
  };
  if (entityType === "resident") {
    const activated = resident?.subscription_start_date != null;
    const payments = records?.payments ?? [];
    return {
      resident,
      facts: {
        ...base,
        payment: activated || confirmedPayment(payments) !== null,
        paymentPending: payments.some((p) => paymentOpen(p, now)),
        registered: activated,
      },
    };
  }
  const payments = await registrationPayments(ctx.em, caller.userId, "company_registration", null);
  return {
    resident,
    facts: {
      ...base,
      payment: confirmedPayment(payments) !== null,
      paymentPending: payments.some((p) => paymentOpen(p, now)),
      registered: await ownsActiveCompany(ctx.em, caller.userId),
    },
  };
}
