/**
 * The debit case (issue 15): `creditservice.deduct` over HTTP with session tokens, spread over DEBIT_WALLETS
 * wallets (each request takes the next token) and on one hot wallet (every request contends for one row lock),
 * against bench/servers/bare-pg-debit.ts doing the same session lookup, conditional update and ledger insert.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { call } from "./setup.ts";

export const DEBIT_WALLETS = 20;
/** Each wallet holds enough for every run (a cent a debit) so no answer is InsufficientFunds. */
const OPENING_BALANCE = 1_000_000;

export const DEBIT_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "creditservice.deduct",
  params: { amount: 0.01, description: "bench debit", reference_type: "admin", reference_id: "bench" },
});

/** Every answer must be a completed deduction row (each one differs: sid, balance_after, created_at). */
export function isDeduction(body: string): boolean {
  return body.includes('"result":{') && body.includes('"tx_type":"deduction"') && body.includes('"status":"completed"');
}

export interface DebitUsers {
  spread: string[];
  hot: string;
}

/** Registers the wallets' users on our server (sessions serve both servers) and funds each wallet directly. */
export async function prepareDebitUsers(rpcUrl: string, databaseUrl: string, schema: string): Promise<DebitUsers> {
  const tokens: string[] = [];
  const userIds: string[] = [];
  for (let i = 0; i <= DEBIT_WALLETS; i++) {
    const answer = await call(rpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "authservice.register",
      params: { email: `bench-wallet${i}@example.com`, password: "Bench-run correct horse battery 42" },
    });
    const result = answer.json.result as { user_id?: string; access_token?: string } | undefined;
    if (!result?.user_id || !result.access_token) throw new Error(`authservice.register failed: ${answer.text}`);
    tokens.push(result.access_token);
    userIds.push(result.user_id);
  }
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema},public` });
  await client.connect();
  try {
    const now = new Date();
    for (const userId of userIds) {
      await client.query(
        `insert into "credit_balance" (sid, user_id, balance, lifetime_earned, lifetime_spent, auto_topup_enabled,
           auto_topup_amount, auto_topup_threshold, created_at, updated_at)
         values ($1, $2, $3, $3, 0, false, 0, 0, $4, $4)`,
        [randomUUID(), userId, OPENING_BALANCE, now],
      );
    }
  } finally {
    await client.end();
  }
  return { spread: tokens.slice(0, DEBIT_WALLETS), hot: tokens[DEBIT_WALLETS] as string };
}

/** The Authorization header of the next wallet, round robin. */
export function rotatingAuth(tokens: string[]): () => Record<string, string> {
  let next = 0;
  return () => ({ authorization: `Bearer ${tokens[next++ % tokens.length]}` });
}
