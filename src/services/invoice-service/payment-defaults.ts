import type { ZoneCompanyRow } from "../../../generated/entities.ts";
import type { InvoiceServiceHandlers } from "../../../generated/handlers/index.ts";
import { sealSecret } from "../../auth/secret-box.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { sealInstructions } from "../../domain/invoices.ts";
import * as invoices from "../../repos/invoices.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { entityTypeOf, invoiceError } from "./common.ts";
import { toDefaultResult } from "./mappers.ts";

/**
 * The caller's payment-instruction defaults: one per (sender entity, currency), replaced on a second set. The
 * security answer is sealed on save and never read back; an invoice prefilled from a default copies it verbatim.
 */

type H = InvoiceServiceHandlers<RpcContext>;

export const getPaymentDefaults: H["getPaymentDefaults"] = async (
  ctx,
  { owner_user_id, sender_entity_type, sender_entity_id, currency },
) => {
  const rows = await invoices.listDefaults(ctx.em, owner_user_id, {
    senderEntityType: sender_entity_type,
    senderEntityId: sender_entity_id,
    currency,
  });
  return { items: rows.map(toDefaultResult) };
};

/**
 * A company default: the dispatcher loaded the company sender_entity_id names and checked the caller directs it
 * (x-target, optional); the type named must be the company's.
 */
function checkSenderType(company: ZoneCompanyRow, type: "company" | "cooperative"): void {
  if (entityTypeOf(company.company_type) !== type) {
    throw invoiceError("InvalidInput", `${company.company_id} is not a ${type}`, { field: "sender_entity_type" });
  }
}

export const setPaymentDefault: H["setPaymentDefault"] = async (
  ctx,
  { payment_instructions, sender_entity_type, sender_entity_id, currency, label },
) => {
  if ((sender_entity_type === undefined) !== (sender_entity_id === undefined)) {
    throw invoiceError("InvalidInput", "sender_entity_type and sender_entity_id go together", {
      field: "sender_entity_id",
    });
  }
  const company = ctx.target.row;
  if (company !== null && sender_entity_type !== undefined) checkSenderType(company, sender_entity_type);
  const now = ctx.now();
  const key: invoices.DefaultKey = {
    owner_user_id: requireCaller(ctx).userId,
    sender_entity_type: sender_entity_type ?? null,
    sender_entity_id: sender_entity_id ?? null,
    currency: currency ?? null,
  };
  const sealed = sealInstructions(payment_instructions, (s) => sealSecret(ctx.config.encryptionKey, s));
  const cleanLabel = label?.trim() ? label.trim() : null;
  const existing = await invoices.findDefaultFor(ctx.em, key);
  if (existing) {
    const changes = { label: cleanLabel, payment_instructions: sealed };
    await invoices.replaceDefault(ctx.em, existing.sid, changes, now);
    return toDefaultResult({ ...existing, ...changes, updated_at: now });
  }
  const row = {
    ...key,
    sid: uuidv7(now),
    label: cleanLabel,
    payment_instructions: sealed,
    created_at: now,
    updated_at: now,
  };
  await invoices.insertDefault(ctx.em, row);
  return toDefaultResult(row);
};

export const deletePaymentDefault: H["deletePaymentDefault"] = async (ctx, { default_id }) => {
  if (!(await invoices.deleteDefault(ctx.em, default_id, requireCaller(ctx).userId))) {
    throw invoiceError.notFound("payment default");
  }
  return { sid: default_id, deleted: true };
};
