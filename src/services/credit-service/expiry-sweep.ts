import { uuidv7 } from "../../domain/ids.ts";
import { BONUS_EXPIRY_MONTHS, bonusExpiries } from "../../domain/ledger.ts";
import { fromCents, toCents } from "../../domain/money.ts";
import { inJobTransaction } from "../../jobs/context.ts";
import { expireFromWallet, lockWallet } from "../../repos/credit-balances.ts";
import { insertLedgerRow, walletLedger, walletsWithExpiringBonus } from "../../repos/credit-transactions.ts";
import type { Runtime } from "../../rpc/runtime.ts";

/**
 * The credit expiry sweep (docs/decisions.md "Credit ledger (issue 15)"): bonus credits left unspent
 * BONUS_EXPIRY_MONTHS after their grant leave the wallet as an `expiry` row naming the bonus (reference_id).
 * Each wallet in its own transaction under its row lock, so concurrent sweeps and debits serialize and a second
 * run finds nothing to do. Answers how many expiry rows it wrote.
 */
export async function sweepExpiredCredits(runtime: Runtime, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - BONUS_EXPIRY_MONTHS);
  let written = 0;
  for (const userId of await walletsWithExpiringBonus(runtime.orm.em.fork(), cutoff)) {
    written += await inJobTransaction(runtime, "credit-expiry", async ({ em: tx }) => {
      await lockWallet(tx, userId, now);
      const entries = (await walletLedger(tx, userId)).map((r) => ({ ...r, amount: toCents(r.amount) }));
      let rows = 0;
      for (const expiry of bonusExpiries(entries, now)) {
        const balanceAfter = await expireFromWallet(tx, userId, expiry.amount, now);
        if (balanceAfter === null) continue;
        await insertLedgerRow(tx, {
          sid: uuidv7(now),
          user_id: userId,
          tx_type: "expiry",
          amount: fromCents(expiry.amount),
          balance_after: fromCents(balanceAfter),
          currency: "USD",
          description: `Bonus credits expired ${BONUS_EXPIRY_MONTHS} months after their grant`,
          reference_type: "admin",
          reference_id: expiry.bonusSid,
          external_call_id: null,
          status: "completed",
          created_at: now,
        });
        rows += 1;
      }
      return rows;
    });
  }
  return written;
}
