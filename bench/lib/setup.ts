/** Database preparation and the one-off calls the bench needs (a user, a session, a resident row, samples). */
import { randomUUID } from "node:crypto";
import pg from "pg";

export interface RpcAnswer {
  status: number;
  text: string;
  json: { result?: unknown; error?: { code: number; message: string } };
}

/** One JSON-RPC call over HTTP (setup only, never under load). */
export async function call(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : {} };
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** Connects, waiting up to a minute while PostgreSQL is out of connections (other sessions' tests fill it). */
async function connectPatiently(databaseUrl: string): Promise<pg.Client> {
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      await client.connect();
      return client;
    } catch (err) {
      if ((err as { code?: string }).code !== "53300" || attempt >= 30) throw err;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** Drops the bench schema so every run starts from a fresh, migrated, nearly empty database. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<string> {
  const client = await connectPatiently(databaseUrl);
  try {
    await client.query(`drop schema if exists ${quote(schema)} cascade`);
    return (await client.query<{ server_version: string }>("show server_version")).rows[0]?.server_version ?? "unknown";
  } finally {
    await client.end();
  }
}

/** Inserts a DigitalResident owned by `userId` (straight SQL: the bench only needs a row to read). */
export async function insertResident(databaseUrl: string, schema: string, userId: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema},public` });
  await client.connect();
  try {
    const sid = randomUUID();
    const now = new Date();
    await client.query(
      `insert into "digital_resident" (sid, resident_id, user_id, partner_id, email, first_name, last_name, status,
         created_at, updated_at) values ($1, $2, $3, null, $4, $5, $6, 'active', $7, $7)`,
      [sid, `FZ-${now.getUTCFullYear()}-RA000001`, userId, "bench@example.com", "Bench", "Resident", now],
    );
    return sid;
  } finally {
    await client.end();
  }
}

export interface BenchUser {
  userId: string;
  token: string;
}

export async function registerUser(rpcUrl: string): Promise<BenchUser> {
  const answer = await call(rpcUrl, {
    jsonrpc: "2.0",
    id: 1,
    method: "authservice.register",
    params: { email: "bench@example.com", password: "Bench-run correct horse battery 42" },
  });
  const result = answer.json.result as { user_id?: string; access_token?: string } | undefined;
  if (!result?.user_id || !result.access_token) throw new Error(`authservice.register failed: ${answer.text}`);
  return { userId: result.user_id, token: result.access_token };
}

/**
 * PIDs of the backends a server opened (each bench server sets its own PGAPPNAME); none when PostgreSQL refuses
 * another connection (other sessions' tests can fill max_connections): the run then reports no PostgreSQL CPU.
 */
export function backendsOf(databaseUrl: string, applicationName: string): () => Promise<number[]> {
  return async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      await client.connect();
    } catch {
      return [];
    }
    try {
      const rows = await client.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
        applicationName,
      ]);
      return rows.rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  };
}
