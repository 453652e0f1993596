import { randomUUID } from "node:crypto";
import type { MethodPolicy } from "../../generated/policy.ts";
import { inWriteTransaction } from "../rpc/call-transaction.ts";
import type { RpcContext } from "../rpc/context.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { createContext } from "../rpc/runtime-context.ts";

/**
 * A job's unit of work runs in a call context with no caller, made like an RPC call's (src/rpc/runtime-context.ts):
 * the same entity manager, write slots and transaction rules as a call, so code shared with handlers (a payment's
 * confirmation) behaves the same whether a caller or a job drives it.
 */
export type JobContext = RpcContext;

/** The method a job's context names when no handler path needs a real one: internal, no target, no spending. */
function jobMethod(name: string): MethodPolicy {
  return {
    name: `job.${name}`,
    kind: "service",
    owner: "jobs",
    op: name,
    domain: "jobs",
    auth: "internal",
    target: null,
    actsAs: null,
    internal: true,
    callerBinding: null,
    password: null,
    audit: null,
    mcp: {
      name: `job_${name}`,
      readOnly: false,
      destructive: false,
      idempotent: true,
      amountParam: null,
      agentTool: false,
      listing: "never",
    },
    errors: {},
    result: "",
    paramNames: [],
    aliases: [],
  };
}

/** A fresh context for one unit of work of job `name`; its request id `job:<name>:<uuid>` names its log lines. */
export function jobContext(runtime: Runtime, name: string, method: MethodPolicy = jobMethod(name)): JobContext {
  const request = {
    requestId: `job:${name}:${randomUUID()}`,
    ip: "internal",
    userAgent: null,
    rawBody: "",
    headers: {},
  };
  return createContext(runtime, null, request, method);
}

/**
 * The one way a job opens a transaction: `work` runs in a fresh job context, in one transaction that commits when it
 * returns and rolls back when it throws (inWriteTransaction, as a writing call's). One call per unit of work: a run, or an
 * item where items lock rows (a wallet, an account) so concurrent runs and calls serialize per item, not per run.
 * `method` is the registry entry a handler path needs (confirm_payment's for the chain watcher); absent, the job's own.
 */
export function inJobTransaction<T>(
  runtime: Runtime,
  name: string,
  work: (ctx: JobContext) => Promise<T>,
  method?: MethodPolicy,
): Promise<T> {
  const ctx = jobContext(runtime, name, method);
  return inWriteTransaction(ctx, () => work(ctx));
}
