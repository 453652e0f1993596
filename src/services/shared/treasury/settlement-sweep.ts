import { uuidv7 } from "../../../domain/ids.ts";
import { fromCents } from "../../../domain/money.ts";
import { payoutProvider } from "../../../integrations/payouts/index.ts";
import { inJobTransaction } from "../../../jobs/context.ts";
import { findAccount } from "../../../repos/treasury-accounts.ts";
import { deleteStaleQuotes } from "../../../repos/treasury-exchanges.ts";
import { credit, insertLedgerRow, lockAccounts, settleLedgerRows } from "../../../repos/treasury-ledger.ts";
import * as transfers from "../../../repos/treasury-transfers.ts";
import type { Runtime } from "../../../rpc/runtime.ts";
import { reservedOf } from "./operations.ts";

/*
 * The treasury sweep (docs/decisions.md "Treasury"): settles external transfers the payout provider has decided
 * and deletes exchange quotes long expired unused. Run in each instance as a job (src/jobs/).
 */

/** Names the sweep's transactions (request ids `job:treasury-settlement:<uuid>`). */
const JOB = "treasury-settlement";

/**
 * Settles one processing transfer by the provider's word, in its own transaction under the source account's lock:
 * answers the state it reached (`processing` when the provider has no verdict yet).
 */
export function settleTransfer(runtime: Runtime, transferId: string, now: Date) {
  return inJobTransaction(runtime, JOB, async ({ em: tx, config }) => {
    const transfer = await transfers.findTransfer(tx, transferId);
    if (transfer?.status !== "processing" || !transfer.provider_ref) return null;
    await lockAccounts(tx, [transfer.from_account_id]);
    const { state, transactionHash } = await payoutProvider(config).status(transfer.provider_ref, now);
    if (state === "processing") return state;
    if (
      !(await transfers.moveTransfer(
        tx,
        transfer.sid,
        "processing",
        state,
        { completed_at: state === "completed" ? now : null },
        now,
      ))
    ) {
      return null;
    }
    await settleLedgerRows(tx, transfer.sid, state === "completed" ? "confirmed" : "failed", transactionHash, now);
    if (state === "failed") {
      const account = await findAccount(tx, transfer.from_account_id);
      if (!account) throw new Error(`treasury account ${transfer.from_account_id} vanished`);
      const total = reservedOf(transfer);
      const after = await credit(tx, account.sid, total, now);
      insertLedgerRow(tx, {
        sid: uuidv7(now),
        account_id: account.sid,
        owner_type: account.owner_type,
        owner_id: account.owner_id,
        tx_type: "credit",
        amount: fromCents(total),
        currency: account.currency,
        balance_after: fromCents(after),
        description: "External transfer failed: amount and fee returned",
        reference: transfer.reference,
        counterparty: transfer.to_external_address,
        fund_transfer_id: transfer.sid,
        exchange_id: null,
        transaction_hash: null,
        status: "confirmed",
        confirmed_at: now,
        created_at: now,
        updated_at: now,
      });
    }
    return state;
  });
}

/** Settles every processing external transfer the provider has a verdict for; answers how many moved. */
export async function settleExternalTransfers(runtime: Runtime, now: Date): Promise<number> {
  let moved = 0;
  for (const sid of await transfers.processingTransfers(runtime.orm.em.fork(), 500)) {
    const state = await settleTransfer(runtime, sid, now);
    if (state === "completed" || state === "failed") moved += 1;
  }
  return moved;
}

/** Unused quotes are kept this long after they expire (a refused execute can still say Expired), then deleted. */
export const STALE_QUOTE_KEEP_S = 24 * 3600;

/** One sweep: settle what the provider decided, then drop quotes long expired unused. */
export async function sweepTreasury(runtime: Runtime, now: Date) {
  const settled = await settleExternalTransfers(runtime, now);
  const staleBefore = new Date(now.getTime() - STALE_QUOTE_KEEP_S * 1000);
  const purged = await inJobTransaction(runtime, JOB, (ctx) => deleteStaleQuotes(ctx.em, staleBefore));
  return { settled, purged };
}
