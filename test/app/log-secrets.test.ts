import { Ajv } from "ajv";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { App } from "../../src/app/create-app.ts";
import { sqlRows } from "../../src/db/sql.ts";
import type { Entry } from "../../src/rpc/dispatcher.ts";
import { startLoggedApp } from "../support/app.ts";
import { toolPolicy } from "../support/tool-policy.ts";

// Issue 13, item 3: a database error is logged without its statement's values.
const SECRET = "$argon2id$v=19$m=65536,t=3,p=4$c2VjcmV0LXNhbHQ$SECRET-HASH-NEVER-LOGGED";
let app: App;
let lines: string[];

beforeAll(async () => {
  ({ app, lines } = await startLoggedApp());
  const ajv = new Ajv({ strict: false });
  const entry = {
    name: "logtest.fail_in_sql",
    kind: "service",
    owner: "LogTestService",
    op: "fail_in_sql",
    domain: "platform",
    auth: "anonymous",
    internal: false,
    target: null,
    actsAs: null,
    callerBinding: null,
    password: null,
    audit: null,
    mcp: toolPolicy("freezone_logtest_fail", false),
    errors: {},
    result: "X",
    paramNames: [],
    aliases: [],
    validateParams: ajv.compile({ type: "object" }),
    validateResult: ajv.compile({ type: "object" }),
    // A user row without its required email: the insert fails inside PostgreSQL with the hash among its values.
    invoke: (ctx) =>
      sqlRows(
        ctx.em,
        `insert into "user" (sid, email, password_hash, created_at, updated_at) values (?, ?, ?, now(), now())`,
        ["u-log", null, SECRET],
      ),
  } as Entry;
  app.runtime.registry.set(entry.name, entry);
});
afterAll(() => app.close());

test("a failing statement answers -32603 and its log line names the constraint, not the values", async () => {
  const res = await app.fetch(
    new Request("http://test/rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "logtest.fail_in_sql", params: {} }),
    }),
  );
  const body = (await res.json()) as { error: { code: number; message: string } };
  expect(body.error).toEqual({ code: -32603, message: "Internal error" });
  const log = lines.join("");
  expect(log).toContain("NotNullConstraintViolationException");
  expect(log).toContain("23502");
  expect(log).not.toContain("SECRET-HASH");
  expect(log).not.toContain("insert into");
});
