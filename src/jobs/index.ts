import { dropExpiredKeys } from "../repos/idempotency-keys.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { sweepExpiredContracts } from "../services/contract-service/expiry-sweep.ts";
import { sweepExpiredCredits } from "../services/credit-service/expiry-sweep.ts";
import { sweepExpiredDrafts } from "../services/entity-draft-service/completion.ts";
import { sweepExpiredProposals } from "../services/governance-service/proposals-expiry.ts";
import { sweepOverdueInvoices } from "../services/invoice-service/overdue-sweep.ts";
import { sweepPayments } from "../services/payment-service/sweep.ts";
import { sweepExpiredResidents } from "../services/resident-service/expiry-sweep.ts";
import { autoTopUpHook, sweepRenewals } from "../services/shared/subscriptions/auto-renewal-sweep.ts";
import { sweepLapsedCompanies } from "../services/shared/subscriptions/lapse-sweep.ts";
import { sweepTreasury } from "../services/shared/treasury/settlement-sweep.ts";
import { inJobTransaction } from "./context.ts";
import { type AnyJob, type Job, type RunningJob, startJob } from "./job.ts";

/*
 * Every background job of an instance (docs/jobs.md). The sweeps' logic stays in their services; here is what makes
 * each a job: its name, its interval and its log line. Intervals not in the configuration are fixed here.
 */

const MINUTE = 60;
const HOUR = 3600;

/** A run that moved `count` rows logs the count; one that moved none logs nothing. */
const counted = (message: string, count: number) => (count > 0 ? { fields: { count }, message } : null);

/** A run that answers the ids it moved logs their count. */
const countOf = (message: string) => (ids: string[]) => counted(message, ids.length);

const residentExpiry: Job<string[]> = {
  name: "resident-expiry",
  everyS: () => MINUTE,
  runOnce: sweepExpiredResidents,
  report: countOf("residents expired by the sweep"),
};

/** Expiry is to the day; hourly is plenty. */
const creditExpiry: Job<number> = {
  name: "credit-expiry",
  everyS: () => HOUR,
  runOnce: sweepExpiredCredits,
  report: (n) => counted("bonus credits expired by the sweep", n),
};

/** Hourly, so a top-up credited meanwhile renews the same day. */
const autoRenewal: Job<Awaited<ReturnType<typeof sweepRenewals>>> = {
  name: "auto-renewal",
  everyS: () => HOUR,
  runOnce: (runtime, now) =>
    sweepRenewals(runtime, now, { log: runtime.log, onShortWallet: autoTopUpHook(runtime.config) }),
  report: (o) =>
    o.renewed.length + o.failed.length > 0
      ? { fields: { renewed: o.renewed.length, failed: o.failed.length }, message: "auto-renewal sweep" }
      : null,
};

/** Due dates are days; hourly is plenty. */
const invoiceOverdue: Job<string[]> = {
  name: "invoice-overdue",
  everyS: () => HOUR,
  runOnce: sweepOverdueInvoices,
  report: countOf("invoices marked overdue by the sweep"),
};

const treasurySettlement: Job<Awaited<ReturnType<typeof sweepTreasury>>> = {
  name: "treasury-settlement",
  everyS: () => MINUTE,
  runOnce: sweepTreasury,
  report: ({ settled, purged }) =>
    settled + purged > 0
      ? { fields: { settled, purged }, message: "treasury sweep: transfers settled, quotes purged" }
      : null,
};

/** PAYMENT_SWEEP_INTERVAL_S. */
const paymentSweep: Job<Awaited<ReturnType<typeof sweepPayments>>> = {
  name: "payment-sweep",
  everyS: (config) => config.paymentSweepIntervalS,
  runOnce: sweepPayments,
  report: (r) =>
    r.expired + r.confirming + r.confirmed + r.charged > 0 ? { fields: { ...r }, message: "payment sweep" } : null,
};

/** The expire_drafts call's work, in one transaction per run. */
const draftExpiry: Job<Awaited<ReturnType<typeof sweepExpiredDrafts>>> = {
  name: "draft-expiry",
  everyS: () => MINUTE,
  runOnce: (runtime, now) => inJobTransaction(runtime, "draft-expiry", (ctx) => sweepExpiredDrafts(ctx.em, now)),
  report: ({ draftIds }) => counted("formation drafts expired by the sweep", draftIds.length),
};

const companyLapse: Job<string[]> = {
  name: "company-lapse",
  everyS: () => MINUTE,
  runOnce: sweepLapsedCompanies,
  report: countOf("companies lapsed to inactive by the sweep"),
};

const contractExpiry: Job<string[]> = {
  name: "contract-expiry",
  everyS: () => MINUTE,
  runOnce: sweepExpiredContracts,
  report: countOf("contracts expired by the sweep"),
};

/** PROPOSAL_SWEEP_INTERVAL_S. */
const proposalExpiry: Job<string[]> = {
  name: "proposal-expiry",
  everyS: (config) => config.proposals.sweepIntervalS,
  runOnce: (runtime, now) => sweepExpiredProposals(runtime, now),
  report: countOf("proposals expired by the sweep"),
};

/** Answers kept for an Idempotency-Key live 24 hours (src/rpc/idempotency.ts); hourly is plenty to drop them. */
const idempotencyKeyExpiry: Job<number> = {
  name: "idempotency-key-expiry",
  everyS: () => HOUR,
  runOnce: (runtime, now) => inJobTransaction(runtime, "idempotency-key-expiry", (ctx) => dropExpiredKeys(ctx.em, now)),
  report: (n) => counted("idempotency keys dropped after 24 hours", n),
};

/** Every job, in the order an instance starts them. */
export const JOBS: readonly AnyJob[] = [
  residentExpiry,
  creditExpiry,
  autoRenewal,
  invoiceOverdue,
  treasurySettlement,
  paymentSweep,
  draftExpiry,
  companyLapse,
  contractExpiry,
  proposalExpiry,
  idempotencyKeyExpiry,
];

/** Starts every job on the runtime; each instance runs them all (their statements are conditional). */
export function startJobs(runtime: Runtime, jobs: readonly AnyJob[] = JOBS): RunningJob[] {
  return jobs.map((job) => startJob(runtime, job));
}
