import type { EntityManager } from "@mikro-orm/postgresql";
import type { Cents } from "../../domain/money.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

/**
 * Where money leaves a credit wallet or a treasury account (docs/decisions.md "Spending counted where money moves
 * (issue 27)"). Every debit of a wallet or an account runs through `moveOut`, so this is the one place that knows a
 * call moves money: the call's method must declare `x-spends` (else the move is refused as an internal error, so
 * every test that reaches the ledger proves the declaration), and an agent key's meter counts the amount against
 * the key's limits and approval threshold in the call's transaction, where a refusal rolls the debit back.
 */

/** A call moving money: its context (its method's declaration and its key's meter). */
export type CallMover = Pick<RpcContext, "em" | "now" | "method" | "spending" | "log">;

/** One of the server's own jobs (a sweep): no key's limits bind it. */
export interface JobMover {
  em: EntityManager;
  now(): Date;
  /** The job's name, for the reader. */
  job: string;
}

export type MoneyMover = CallMover | JobMover;

export function jobMover(em: EntityManager, now: Date, job: string): JobMover {
  return { em, now: () => now, job };
}

/**
 * Runs `debit` (a conditional update that answers null when the money is not there: nothing moved), then counts
 * the `cents` of `currency` it moved against the calling agent key. Refused before anything moves in a call whose
 * method does not declare `x-spends`.
 */
export async function moveOut<T>(
  mover: MoneyMover,
  out: { cents: Cents; currency: string },
  debit: () => Promise<T | null>,
): Promise<T | null> {
  if ("method" in mover && mover.method.spends !== true) {
    mover.log.error(
      { method: mover.method.name, cents: out.cents, currency: out.currency },
      "money would leave a wallet or treasury account in a call whose method does not declare x-spends",
    );
    throw RpcError.internal();
  }
  const moved = await debit();
  if (moved !== null && "method" in mover) await mover.spending?.spend(out.cents, out.currency);
  return moved;
}
