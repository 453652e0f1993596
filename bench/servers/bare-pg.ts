/**
 * Baseline 2: `node:http` + a bare node-postgres Pool doing what `digitalresident.get` needs: the session lookup
 * by token hash (joined to its user), the expiry/revocation/suspension checks, and the row select; answers the row
 * as a JSON-RPC result. Same database and schema as our server, same pool size (10, both libraries' default).
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";
import { failAsChild, readBody, serveAsChild } from "./child.ts";

const { databaseUrl, schema } = JSON.parse(process.argv[2] ?? "{}") as { databaseUrl: string; schema: string };
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema},public` });
const HEADERS = { "content-type": "application/json" };

const SESSION_SQL = `select s.sid, s.user_id, s.expires_at, s.revoked_at, u.email, u.roles, u.is_suspended
  from "session" s join "user" u on u.sid = s.user_id where s.token_hash = $1 limit 1`;
const ROW_SQL = `select * from "digital_resident" where sid = $1`;

interface Message {
  id?: unknown;
  params?: { sid?: string };
}

function answer(res: import("node:http").ServerResponse, id: unknown, payload: object): void {
  res.writeHead(200, HEADERS);
  res.end(JSON.stringify({ jsonrpc: "2.0", id, ...payload }));
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
  const row = (await pool.query(ROW_SQL, [message.params?.sid ?? ""])).rows[0];
  if (!row || row.user_id !== session.user_id)
    return answer(res, id, { error: { code: -32004, message: "not found" } });
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
