import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneInvoiceEntity, type ZoneInvoiceRow } from "../../generated/entities.ts";
import { affected } from "../db/sql.ts";

/**
 * What payments read and write on ZoneInvoice (issue 15): the invoice an invoice payment settles. InvoiceService
 * owns the rest of the table.
 */

export function findInvoice(em: EntityManager, sid: string): Promise<ZoneInvoiceRow | null> {
  return em.findOne(ZoneInvoiceEntity, { sid }, { disableIdentityMap: true });
}

/**
 * Marks the invoice paid by a confirmed payment, once: only a `sent` or `overdue` invoice moves (a paid, draft or
 * cancelled one is left as it is). Answers whether it moved.
 */
export async function markInvoicePaid(
  em: EntityManager,
  invoiceSid: string,
  method: "card" | "mobilepay" | "crypto" | "bank_transfer",
  reference: string,
  now: Date,
): Promise<boolean> {
  const n = await affected(
    em,
    `update "zone_invoice" set status = 'paid', payment_method = ?, payment_reference = ?, paid_at = ?, updated_at = ?
     where sid = ? and status in ('sent', 'overdue')`,
    [method, reference, now, now, invoiceSid],
  );
  return n > 0;
}
