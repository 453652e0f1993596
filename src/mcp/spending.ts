import type { EntityManager } from "@mikro-orm/postgresql";
import { type Cents, fromCents, toCents } from "../domain/money.ts";
import { type FxProvider, toEur } from "../integrations/fx/index.ts";
import { unaudited, withAuditDetails } from "../rpc/audit-marks.ts";
import type { SpendingMeter } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import {
  AMOUNT_EPSILON,
  type KeyPolicy,
  type Refusal,
  spendingRefusal,
  thresholdReason,
  transactionRefusal,
  usageWindows,
} from "./policy.ts";
import { consumeUsage } from "./usage.ts";

/**
 * An agent key's spending meter (docs/decisions.md "Spending counted where money moves (issue 27)"): the ledger
 * calls it at every amount that leaves a wallet or a treasury account during the key's call (src/services/
 * money-out.ts), in the call's transaction, so a refusal rolls the debit back with everything else the call wrote.
 *
 * - `call`: each amount is converted to EUR; the call's total so far is checked against the per-transaction limit
 *   and the approval threshold, then the amount is added to the day's and month's counters, conditionally (the
 *   counter row's lock, held until the call commits, orders concurrent calls of the key: no lost update).
 * - `replay`: an approved call; the threshold is not asked again, and the call may move no more than was approved.
 * - `dry`: a dry run; amounts are only recorded (converted and judged after it was rolled back).
 */
export type MeterMode = { kind: "call" } | { kind: "replay"; approvedAmount: number } | { kind: "dry" };

/** What a call moved: `amount` in its currency (its EUR figure when it moved several), `eur` null when nothing. */
export interface Spent {
  amount: number;
  eur: number | null;
}

export class KeySpending implements SpendingMeter {
  private readonly moves: { cents: Cents; currency: string }[] = [];
  private eurCents: Cents = 0;
  /** Set when the call went over the approval threshold: it was stopped to be parked. */
  approvalNeeded = false;

  constructor(
    private readonly fx: FxProvider,
    private readonly em: EntityManager,
    private readonly policy: KeyPolicy,
    private readonly now: Date,
    private readonly mode: MeterMode,
  ) {}

  async spend(cents: Cents, currency: string): Promise<void> {
    this.moves.push({ cents, currency });
    if (this.mode.kind === "dry") return;
    const eur = toCents(await toEur(this.fx, fromCents(cents), currency, this.now));
    this.eurCents += eur;
    const total = fromCents(this.eurCents);
    const over = transactionRefusal(this.policy, total) ?? this.overApproved();
    if (over) throw keyRefusal(over);
    if (this.mode.kind === "call" && thresholdReason(this.policy, total)) {
      this.approvalNeeded = true;
      // Not a denial: the call is parked, so its method writes no audit row now (the approved replay writes it).
      throw unaudited(
        RpcError.app("ApiKeyError", "ApprovalRequired", "this call waits for the approval of the key's owner"),
      );
    }
    const refused = await consumeUsage(
      this.em,
      this.policy.keyId,
      usageWindows(this.policy, fromCents(eur), this.now, false),
      this.now,
    );
    if (refused) throw keyRefusal(refused);
  }

  /** What the call moved so far (a dry run's amounts are converted here, after it). */
  async spent(): Promise<Spent> {
    if (this.moves.length === 0) return { amount: 0, eur: null };
    if (this.mode.kind === "dry") {
      this.eurCents = 0;
      for (const m of this.moves)
        this.eurCents += toCents(await toEur(this.fx, fromCents(m.cents), m.currency, this.now));
    }
    return { amount: this.amount(), eur: fromCents(this.eurCents) };
  }

  private amount(): number {
    const [first] = this.moves;
    const single = this.moves.every((m) => m.currency === first?.currency);
    return single ? fromCents(this.moves.reduce((sum, m) => sum + m.cents, 0)) : fromCents(this.eurCents);
  }

  private overApproved(): Refusal | null {
    if (this.mode.kind !== "replay" || this.amount() <= this.mode.approvedAmount + AMOUNT_EPSILON) return null;
    return spendingRefusal("approval", this.mode.approvedAmount, "the call moves more than its approval allows");
  }
}

/**
 * The error of a refusal by the key's policy. An audited method's denial row says so (`reason: "key_policy"`, and
 * the limit and window refused), wherever it is written: by the dispatcher for a refusal where money moves, by
 * runTool for one before the dispatch.
 */
export const keyRefusal = (r: Refusal): RpcError =>
  withAuditDetails(RpcError.app("ApiKeyError", r.variant, r.message, r.details), {
    reason: "key_policy",
    ...r.details,
  });

/** A refusal of the key's policy (answered `rejected` in the call log), not a failure of the call itself. */
export const isKeyRefusal = (error: RpcError): boolean =>
  error.data?.type === "ApiKeyError" &&
  ["SpendingLimit", "CallLimit", "ScopeDenied", "ProviderRejected"].includes(`${error.data.variant}`);
