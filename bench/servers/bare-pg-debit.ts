/**
 * Baseline 3: `node:http` + a bare node-postgres Pool doing what `creditservice.deduct` needs: the session lookup
 * by token hash (joined to its user, expiry/revocation/suspension checked), then in one transaction the conditional
 * wallet update (`where balance >= amount`, returning the balance) and the ledger row insert; answers the ledger
 * row as a JSON-RPC result. Same database, schema and pool size (10) as our server.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";
import { failAsChild, readBody, serveAsChild } from "./child.ts";

const { databaseUrl, schema } = JSON.parse(process.argv[2] ?? "{}") as { databaseUrl: string; schema: string };
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema},public` });
const HEADERS = { "content-type": "application/json" };

const SESSION_SQL = `select s.sid, s.user_id, s.expires_at, s.revoked_at, u.is_suspended
  from "session" s join "user" u on u.sid = s.user_id where s.token_hash = $1 limit 1`;
const DEBIT_SQL = `update "credit_balance" set balance = balance - $1, lifetime_spent = lifetime_spent + $1,
  updated_at = $3 where user_id = $2 and balance >= $1 returning balance::text as balance`;
const LEDGER_SQL = `insert into "credit_transaction" (sid, user_id, tx_type, amount, balance_after, currency,
  description, reference_type, reference_id, external_call_id, status, created_at, updated_at)
  values ($1, $2, 'deduction', $3, $4, 'USD', $5, $6, $7, null, 'completed', $8, $8)`;

interface Message {
  id?: unknown;
  params?: { amount?: number; description?: string; reference_type?: string; reference_id?: string };
}

function answer(res: import("node:http").ServerResponse, id: unknown, payload: object): void {
  res.writeHead(200, HEADERS);
  res.end(JSON.stringify({ jsonrpc: "2.0", id, ...payload }));
}

async function debit(userId: string, p: NonNullable<Message["params"]>) {
  const amount = (p.amount ?? 0).toFixed(2);
  const now = new Date();
  const client = await pool.connect();
  try {
    await client.query("begin");
    const balance = (await client.query<{ balance: string }>(DEBIT_SQL, [amount, userId, now])).rows[0]?.balance;
    if (balance === undefined) {
      await client.query("rollback");
      return null;
    }
    const sid = randomUUID();
    const row = [sid, userId, amount, balance, p.description ?? "", p.reference_type ?? null, p.reference_id ?? null];
    await client.query(LEDGER_SQL, [...row, now]);
    await client.query("commit");
    return {
      sid,
      user_id: userId,
      tx_type: "deduction",
      amount: Number(amount),
      balance_after: Number(balance),
      currency: "USD",
      description: p.description ?? "",
      reference_type: p.reference_type ?? null,
      reference_id: p.reference_id ?? null,
      external_call_id: null,
      status: "completed",
      created_at: now.toISOString(),
    };
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function handle(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) {
  const message = JSON.parse(await readBody(req)) as Message;
  const id = message.id ?? null;
  const token = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
  const hash = createHash("sha256").update(token).digest("hex");
  const session = (await pool.query(SESSION_SQL, [hash])).rows[0];
  if (
    !session ||
    session.revoked_at !== null ||
    new Date(session.expires_at).getTime() <= Date.now() ||
    session.is_suspended
  ) {
    return answer(res, id, { error: { code: -32001, message: "unauthenticated" } });
  }
  const row = await debit(session.user_id, message.params ?? {});
  if (!row) return answer(res, id, { error: { code: -32006, message: "insufficient funds" } });
  return answer(res, id, { result: row });
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => res.destroy());
});
server.on("error", failAsChild);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  serveAsChild(typeof address === "object" && address ? address.port : 0, () => pool.end());
});
