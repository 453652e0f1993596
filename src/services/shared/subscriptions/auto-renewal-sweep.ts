import type { EntityManager } from "@mikro-orm/postgresql";
import type { AuditTargetType } from "../../../../generated/types.ts";
import { type Cents, toCents } from "../../../domain/money.ts";
import { isRefusal } from "../../../domain/refusal.ts";
import { autoRenewalHorizon, autoRenewalPlan } from "../../../domain/subscriptions.ts";
import { inJobTransaction } from "../../../jobs/context.ts";
import { writeAudit } from "../../../repos/audit-log.ts";
import { findWallet } from "../../../repos/credit-balances.ts";
import {
  dueForRenewal,
  lockCompany,
  lockResident,
  type Message,
  messagePostedSince,
  postCompanyMessage,
  postUserMessage,
} from "../../../repos/subscriptions.ts";
import type { Runtime } from "../../../rpc/runtime.ts";
import { startAutoTopUp } from "../../credit-service/auto-topup.ts";
import { jobMover } from "../money-out.ts";
import { type RenewalRefusal, renewCompany, renewResident } from "./renew.ts";

/**
 * The auto-renewal sweep (docs/decisions.md "Renewals and auto-renewal"): residents and companies with
 * `auto_renewal` whose subscription ends within AUTO_RENEWAL_WINDOW_DAYS are renewed from the wallet (the resident's
 * user, the company's owning user) for their stored plan's duration. Each entity in its own transaction under its
 * row lock, re-checked there: a renewed entity's end has moved past the window, so a second run (or a concurrent
 * sweep on another instance) renews nothing twice. A renewal that fails posts a message (UserMessage for a
 * resident, CompanyMessage for a company) and writes a refused renew_subscription audit row, at most once per UTC
 * day per entity; when the wallet is short and its auto top-up is enabled, that first failure of the day also
 * starts a top-up through `onShortWallet`, so a later run of the sweep finds the wallet funded.
 */

export interface SweepDeps {
  /**
   * Starts an auto top-up of the user's wallet (CreditService's card top-up, src/services/credit-service/auto-topup.ts)
   * for at least `neededCents`, in the sweep's transaction; answers a reference of what it started, or null when none
   * started (off, no card, not needed). Absent: the sweep only reports the short wallet.
   */
  onShortWallet?: (em: EntityManager, userId: string, now: Date, neededCents: Cents) => Promise<string | null>;
  log?: Pick<Runtime["log"], "error">;
}

export interface SweepOutcome {
  renewed: string[];
  failed: string[];
  /** References onShortWallet answered. */
  topUps: string[];
}

type Kind = "resident" | "company";

const FAILED_TITLE = "Automatic renewal failed";

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function sweepRenewals(runtime: Runtime, now: Date, deps: SweepDeps = {}): Promise<SweepOutcome> {
  const out: SweepOutcome = { renewed: [], failed: [], topUps: [] };
  const horizon = autoRenewalHorizon(now);
  const em = runtime.orm.em.fork();
  for (const kind of ["resident", "company"] as const) {
    for (const id of await dueForRenewal(em, kind, now, horizon)) await renewOne(runtime, kind, id, now, deps, out);
  }
  return out;
}

/** The sweep moves money as the server's own job: no agent key's limits bind it. */
const SWEEP = "auto-renewal sweep";
/** Names the sweep's transactions (request ids `job:auto-renewal:<uuid>`). */
const SWEEP_JOB = "auto-renewal";

interface Due {
  payerId: string;
  targetRef: string;
  targetType: AuditTargetType;
  name: string;
  renew(): ReturnType<typeof renewResident>;
  notify(m: Message): Promise<void>;
  notified(since: Date): Promise<boolean>;
}

/** The locked entity, still due, ready to renew; null when it no longer is (renewed meanwhile, changed, gone). */
async function loadDue(tx: EntityManager, kind: Kind, id: string, now: Date): Promise<Due | null> {
  const horizon = autoRenewalHorizon(now).getTime();
  const dueEnd = (end: Date | null) => end !== null && end.getTime() > now.getTime() && end.getTime() <= horizon;
  if (kind === "resident") {
    const r = await lockResident(tx, id);
    if (!r || r.user_id === null || !r.auto_renewal || r.status !== "active" || !dueEnd(r.subscription_end_date)) {
      return null;
    }
    const userId = r.user_id;
    return {
      payerId: userId,
      targetRef: userId,
      targetType: "subscription",
      name: `your residency ${r.resident_id}`,
      renew: () => renewResident(jobMover(tx, now, SWEEP), r, autoRenewalPlan(r.subscription_plan), userId),
      notify: (m) => postUserMessage(tx, userId, m, now),
      notified: (since) => messagePostedSince(tx, { userId }, FAILED_TITLE, since),
    };
  }
  const c = await lockCompany(tx, id);
  if (!c?.auto_renewal || c.status !== "active" || !dueEnd(c.subscription_end_date)) return null;
  return {
    payerId: c.user_id,
    targetRef: c.company_id,
    targetType: "company",
    name: `${c.name} (${c.company_id})`,
    renew: () => renewCompany(jobMover(tx, now, SWEEP), c, autoRenewalPlan(c.subscription_plan), c.user_id),
    notify: (m) => postCompanyMessage(tx, c.company_id, m, now),
    notified: (since) => messagePostedSince(tx, { companyId: c.company_id }, FAILED_TITLE, since),
  };
}

async function renewOne(runtime: Runtime, kind: Kind, id: string, now: Date, deps: SweepDeps, out: SweepOutcome) {
  await inJobTransaction(runtime, SWEEP_JOB, async ({ em: tx }) => {
    const due = await loadDue(tx, kind, id, now);
    if (!due) return;
    const result = await due.renew();
    const audit = { subjectId: due.payerId, action: "renew_subscription" as const, targetRef: due.targetRef };
    if (!isRefusal(result)) {
      await writeAudit(tx, { ...audit, targetType: due.targetType, allowed: true, context: autoContext(result) }, now);
      if (kind === "resident") {
        await due.notify({
          title: "Subscription renewed",
          body: `Your residency was renewed automatically until ${result.subscription_end_date?.slice(0, 10)}; ${result.amount_charged?.toFixed(2)} USD were debited from your credit wallet.`,
          messageType: "notification",
        });
      }
      out.renewed.push(id);
      return;
    }
    out.failed.push(id);
    if (await due.notified(startOfUtcDay(now))) return;
    const topUp =
      result.refusal === "InsufficientFunds"
        ? await startTopUp(tx, due.payerId, now, toCents(Number(result.details?.["amount"] ?? 0)), deps)
        : null;
    if (topUp) out.topUps.push(topUp);
    await writeAudit(
      tx,
      {
        ...audit,
        targetType: due.targetType,
        allowed: false,
        context: { auto_renewal: true, refusal: result.refusal, ...result.details, top_up: topUp },
      },
      now,
    );
    await due.notify({ title: FAILED_TITLE, body: failureText(due.name, result, topUp), messageType: "alert" });
  });
}

function autoContext(result: { amount_charged: number | null; subscription_end_date: string | null }) {
  return { auto_renewal: true, amount: result.amount_charged, subscription_end_date: result.subscription_end_date };
}

/** Starts an auto top-up when the payer's wallet has it enabled (in a savepoint: its failure keeps the message). */
async function startTopUp(
  tx: EntityManager,
  userId: string,
  now: Date,
  neededCents: Cents,
  deps: SweepDeps,
): Promise<string | null> {
  const start = deps.onShortWallet;
  if (!start || !(await findWallet(tx, userId))?.auto_topup_enabled) return null;
  try {
    return await tx.transactional((inner) => start(inner, userId, now, neededCents));
  } catch (err) {
    deps.log?.error({ err, userId }, "auto top-up for a renewal could not start");
    return null;
  }
}

function failureText(name: string, r: RenewalRefusal, topUp: string | null): string {
  if (r.refusal !== "InsufficientFunds") return `The automatic renewal of ${name} failed: ${r.message}.`;
  const amount = Number(r.details?.["amount"] ?? 0).toFixed(2);
  const balance = Number(r.details?.["balance"] ?? 0).toFixed(2);
  const next = topUp
    ? "An automatic top-up was started; the renewal is tried again once it is credited."
    : "Top up your credit wallet; the renewal is tried again before the subscription ends.";
  return `The automatic renewal of ${name} failed: it costs ${amount} USD and the wallet holds ${balance} USD. ${next}`;
}

/**
 * The sweep's top-up in production: CreditService's automatic card top-up; a reference only when one was started
 * or is already open (off, without a card or not needed: null, and the message says to top up by hand).
 */
export function autoTopUpHook(config: Runtime["config"]): NonNullable<SweepDeps["onShortWallet"]> {
  return async (em, userId, now, neededCents) => {
    const outcome = await startAutoTopUp(em, config, userId, now, neededCents);
    return outcome === "started" || outcome === "pending" ? `auto_topup_${outcome}` : null;
  };
}
