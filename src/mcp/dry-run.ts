import { writeSlots } from "../db/orm.ts";
import { withoutProviders } from "../integrations/dry-run.ts";
import { createCallContext } from "../rpc/call-context.ts";
import { dispatch } from "../rpc/dispatcher.ts";
import type { McpDeps } from "./deps.ts";
import type { Invocation } from "./invocation.ts";
import type { KeyPolicy } from "./policy.ts";
import { KeySpending, type Spent } from "./spending.ts";

/** What a dry run found: the error the call would answer (null: it would succeed) and what it would move. */
export interface DryRun {
  error: unknown;
  spent: Spent;
}

/**
 * Runs the call as it would run now, inside a transaction that is always rolled back (the dispatcher's own
 * transaction is a savepoint of it, and so are the writes it keeps on rollback), with the providers in their
 * dry-run mode (src/integrations/dry-run.ts) and `commitNow` writes made inside it: nothing it did is left behind,
 * on PGlite or PostgreSQL. Its meter records every amount that would leave a wallet or treasury account.
 */
export async function dryRun(
  deps: McpDeps,
  inv: Invocation,
  policy: KeyPolicy,
  params: Record<string, unknown>,
  now: Date,
): Promise<DryRun> {
  const { orm, config, log } = deps.runtime;
  const em = orm.em.fork();
  const meter = new KeySpending(deps.fx, em, policy, now, { kind: "dry" });
  const ctx = createCallContext({
    em: () => em,
    ownConnection: null,
    writeSlots: null,
    caller: inv.caller,
    config,
    request: inv.request,
    method: inv.entry,
    log,
    spending: meter,
  });
  let error: unknown = null;
  const release = await writeSlots(orm)?.acquire();
  try {
    await em.begin();
    try {
      await withoutProviders(() => dispatch(inv.entry, ctx, params));
    } catch (err) {
      error = err;
    } finally {
      await em.rollback();
      em.clear();
    }
  } finally {
    release?.();
  }
  return { error, spent: await meter.spent() };
}
