import type { EntityManager } from "@mikro-orm/postgresql";
import { PaymentEntity, type PaymentRow } from "../../generated/entities.ts";

/** The Payment rows the credit ledger reads (a top-up names the confirmed payment that funds it). */
export function findPayment(em: EntityManager, paymentId: string): Promise<PaymentRow | null> {
  return em.findOne(PaymentEntity, { sid: paymentId });
}
