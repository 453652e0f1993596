import { expect, test } from "vitest";
import { type Client, startTestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { sql } from "../support/helpers.ts";
import { aiDebit, fund } from "./support.ts";

/** Runs the tasks with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

test.runIf(usingPostgres)(
  "concurrent debits on PostgreSQL: no lost update, no negative balance, each external_call_id billed once",
  async () => {
    const t = await startTestApp();
    const admin = await t.admin();
    const wallets: Client[] = [];
    for (let i = 0; i < 20; i++) wallets.push(await t.register(`spread${i}@example.org`));
    const hot = await t.register("hot@example.org");
    for (const w of wallets) await fund(admin, w.userId, 40);
    await fund(admin, hot.userId, 150);

    type Outcome = { ok: boolean; variant?: string; sid?: string; callId?: string };
    const deduct = (client: Client, i: number) => async (): Promise<Outcome> => {
      const r = await client.call("creditservice.deduct", {
        amount: 1,
        description: "load",
        reference_type: "admin",
        reference_id: `d${i}`,
      });
      return "result" in r ? { ok: true, sid: r.result.sid } : { ok: false, variant: r.error.data?.variant };
    };
    const ai = (client: Client, callId: string) => async (): Promise<Outcome> => {
      const r = await aiDebit(client, {
        user_id: client.userId,
        amount: 0.5,
        external_call_id: callId,
        description: "q",
      });
      return "result" in r
        ? { ok: true, sid: r.result.sid, callId }
        : { ok: false, variant: r.error.data?.variant, callId };
    };
    const tasks: (() => Promise<Outcome>)[] = [];
    for (let i = 0; i < 1000; i++) tasks.push(deduct(wallets[i % 20] as Client, i)); // 50 per wallet, 40 affordable
    for (let i = 0; i < 200; i++) tasks.push(deduct(hot, 1000 + i)); // 150 affordable
    // 100 AI calls, each sent three times (repeats race each other), over the 20 wallets and the hot one.
    for (let i = 0; i < 300; i++) {
      const n = i % 100;
      tasks.push(ai(n % 21 === 20 ? hot : (wallets[n % 21] as Client), `ai-${n}`));
    }
    // Interleave so the HTTP debits and the in-process AI debits contend for the same wallets.
    const order = tasks.map((task, i) => ({ task, key: (i * 7919) % tasks.length })).sort((a, b) => a.key - b.key);
    const started = Date.now();
    const outcomes = await pool(
      order.map((o) => o.task),
      50,
    );
    const elapsed = Date.now() - started;

    const refusedVariants = new Set(outcomes.filter((o) => !o.ok).map((o) => o.variant));
    expect([...refusedVariants].every((v) => v === "InsufficientFunds")).toBe(true);

    // Every wallet: opening (0) + credits - debits = balance, never negative.
    const figures = await sql<{ user_id: string; balance: string; credits: string; debits: string; spent: string }>(
      t,
      `select b.user_id, b.balance::text, b.lifetime_spent::text as spent,
              coalesce(sum(x.amount) filter (where x.tx_type in ('top_up', 'bonus', 'refund')), 0)::text as credits,
              coalesce(sum(x.amount) filter (where x.tx_type in ('deduction', 'expiry')), 0)::text as debits
       from credit_balance b left join credit_transaction x on x.user_id = b.user_id
       group by b.user_id, b.balance, b.lifetime_spent`,
    );
    expect(figures).toHaveLength(21);
    for (const f of figures) {
      expect(Number(f.balance)).toBeGreaterThanOrEqual(0);
      expect(Math.round((Number(f.credits) - Number(f.debits)) * 100)).toBe(Math.round(Number(f.balance) * 100));
      expect(f.spent).toBe(f.debits);
    }
    // The hot wallet: exactly what it could afford was spent (150 = debits of 1.00 and 0.50).
    const hotFigures = figures.find((f) => f.user_id === hot.userId);
    expect(Number(hotFigures?.debits)).toBeLessThanOrEqual(150);
    // Each wallet's balance_after chain is the running balance in commit order: the last row equals the balance.
    const lastRows = await sql<{ user_id: string; balance_after: string; balance: string }>(
      t,
      `select distinct on (x.user_id) x.user_id, x.balance_after::text, b.balance::text
       from credit_transaction x join credit_balance b on b.user_id = x.user_id
       where x.tx_type = 'deduction' order by x.user_id, x.balance_after asc`,
    );
    for (const r of lastRows) expect(r.balance_after).toBe(r.balance);
    // A lost update would show as two rows of one wallet leaving the same balance.
    const sameBalanceAfter = await sql(
      t,
      `select user_id, balance_after from credit_transaction group by user_id, balance_after having count(*) > 1`,
    );
    expect(sameBalanceAfter).toEqual([]);

    // No duplicate external_call_id; every successful repeat answered the one row written.
    const dupes = await sql(
      t,
      `select external_call_id from credit_transaction where external_call_id is not null
       group by external_call_id having count(*) > 1`,
    );
    expect(dupes).toEqual([]);
    const rowsByCall = new Map<string, Set<string>>();
    for (const o of outcomes) {
      if (!o.ok || !o.callId || !o.sid) continue;
      const set = rowsByCall.get(o.callId) ?? new Set<string>();
      set.add(o.sid);
      rowsByCall.set(o.callId, set);
    }
    for (const sids of rowsByCall.values()) expect(sids.size).toBe(1);
    const aiRows = await sql<{ n: string }>(
      t,
      `select count(*) as n from credit_transaction where reference_type = 'ai_call'`,
    );
    expect(Number(aiRows[0]?.n)).toBe(rowsByCall.size);
    // Every successful HTTP debit is one row.
    const httpOk = outcomes.filter((o) => o.ok && !o.callId).length;
    const httpRows = await sql<{ n: string }>(
      t,
      `select count(*) as n from credit_transaction where tx_type = 'deduction' and reference_type = 'admin'`,
    );
    expect(Number(httpRows[0]?.n)).toBe(httpOk);
    console.info(`concurrency proof: ${outcomes.length} debits in ${elapsed} ms, ${httpOk} HTTP debits succeeded`);
  },
  120_000,
);
