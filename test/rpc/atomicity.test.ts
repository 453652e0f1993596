import { Ajv } from "ajv";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EmailOutboxEntity } from "../../generated/entities.ts";
import type { MethodPolicy } from "../../generated/policy.ts";
import { limitQuota } from "../../src/auth/limits.ts";
import { sqlRows } from "../../src/db/sql.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import { writeSurviving } from "../../src/rpc/call-context.ts";
import type { RpcContext } from "../../src/rpc/context.ts";
import type { Entry } from "../../src/rpc/dispatcher.ts";
import { RpcError } from "../../src/rpc/errors.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { toolPolicy } from "../support/tool-policy.ts";

// One call, one transaction (issue 12, item 3): test-only methods registered on the app's registry run through
// the real /rpc endpoint and dispatcher, on PGlite and (DATABASE_URL) PostgreSQL alike.

const ajv = new Ajv({ strict: false });
type Behaviour = { fail?: "app" | "internal" | "duplicate"; to?: string };

function outboxRow(to: string, template: string) {
  const now = new Date();
  return {
    sid: uuidv7(now),
    to_email: to,
    subject: "s",
    body_text: "b",
    template,
    provider_message_id: null,
    error: null,
    body_html: null,
    reply_to: null,
    attachment_filename: null,
    attachment_content_type: null,
    attachment_base64: null,
    created_at: now,
    updated_at: now,
  };
}

/** Writes the same way handlers do, in every style at once: raw SQL, a unit-of-work entity, a mid-call flush and
 * a native update; then fails as asked. */
async function writeEverything(ctx: RpcContext, { fail, to = "a@example.org" }: Behaviour) {
  const rawSid = uuidv7();
  await sqlRows(
    ctx.em,
    `insert into email_outbox (sid, to_email, subject, body_text, template, status, created_at, updated_at)
     values (?, ?, 'raw', 'raw', 'raw', 'sent', now(), now())`,
    [rawSid, to],
  );
  ctx.em.create(EmailOutboxEntity, outboxRow(to, "entity"));
  await ctx.em.flush();
  ctx.em.create(EmailOutboxEntity, outboxRow(to, "entity-late"));
  await ctx.em.insert(EmailOutboxEntity, outboxRow(to, "native"));
  await ctx.em.nativeUpdate(EmailOutboxEntity, { template: "raw", to_email: to }, { subject: "updated" });
  if (fail === "app") throw RpcError.app("RpcError", "InvalidState", "asked to fail");
  if (fail === "internal") throw new Error("a bug");
  // The row raw SQL wrote is not in the unit of work: this create fails only when the commit flushes it.
  if (fail === "duplicate") ctx.em.create(EmailOutboxEntity, { ...outboxRow(to, "dup"), sid: rawSid });
  return { in_transaction: ctx.em.isInTransaction() };
}

function testEntry(
  name: string,
  invoke: (ctx: RpcContext, params: Behaviour) => Promise<unknown>,
  policy: Partial<MethodPolicy> = {},
): Entry {
  const readOnly = policy.mcp?.readOnly ?? false;
  return {
    name: `atomicity.${name}`,
    kind: "service",
    owner: "AtomicityService",
    op: name,
    domain: "platform",
    auth: "anonymous",
    internal: false,
    callerBinding: null,
    password: null,
    audit: null,
    mcp: toolPolicy(`freezone_atomicity_${name}`, readOnly),
    errors: { RpcError: ["InvalidState"] },
    result: "AtomicityResult",
    paramNames: ["fail", "to"],
    aliases: [],
    validateParams: ajv.compile({
      type: "object",
      properties: { fail: { enum: ["app", "internal", "duplicate"] }, to: { type: "string" } },
      additionalProperties: false,
    }),
    validateResult: ajv.compile({ type: "object" }),
    invoke: (ctx, params) => invoke(ctx, params as Behaviour),
    ...policy,
  } as Entry;
}

let t: TestApp;
let alice: Client;
const outbox = () => count(t, "email_outbox");

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.register("alice@example.org");
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql(t, "delete from email_outbox");
  await sql(t, "delete from rate_limit_counter");
  await sql(t, "truncate user_audit_log");
  const entries = [
    testEntry("write", writeEverything),
    testEntry("read", writeEverything, {
      mcp: toolPolicy("freezone_atomicity_read", true),
    }),
    testEntry("audited", writeEverything, {
      auth: "user",
      audit: { action: "other", targetType: "other", targetParam: "to" },
    }),
    testEntry("limited", async (ctx, p) => {
      await limitQuota(ctx, "RpcError", `atomicity:${p.to}`, 100, 3600);
      return writeEverything(ctx, p);
    }),
    testEntry("survives", async (ctx, p) => {
      await writeSurviving(ctx, (em) => em.insert(EmailOutboxEntity, outboxRow(p.to ?? "", "kept")));
      return writeEverything(ctx, p);
    }),
  ];
  for (const entry of entries) t.app.runtime.registry.set(entry.name, entry);
});

describe("one call, one transaction", () => {
  test("a call that writes raw SQL, entities and native updates and returns commits all of it", async () => {
    const r = await t.rpc("atomicity.write", {});
    expect(r.result).toEqual({ in_transaction: true });
    expect(await outbox()).toBe(4);
    expect(await count(t, "email_outbox", "subject = 'updated'")).toBe(1);
  });

  test("a call that writes and then throws an application error leaves nothing behind", async () => {
    const r = await t.rpc("atomicity.write", { fail: "app" });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await outbox()).toBe(0);
  });

  test("a call that writes and then fails with a bug leaves nothing behind and answers -32603 without details", async () => {
    const r = await t.rpc("atomicity.write", { fail: "internal" });
    expect(r.error).toEqual({ code: -32603, message: "Internal error" });
    expect(await outbox()).toBe(0);
  });

  test("a unique violation at commit rolls back the whole call and answers AlreadyExists", async () => {
    const r = await t.rpc("atomicity.write", { fail: "duplicate" });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    expect(await outbox()).toBe(0);
  });

  test("a refused audited call keeps its denial row while its writes roll back; a success commits its row", async () => {
    const refused = await alice.rpc("atomicity.audited", { fail: "app", to: "x@example.org" });
    expect(refused.error).toMatchObject({ data: { variant: "InvalidState" } });
    expect(await outbox()).toBe(0);
    const rows = await sql(t, "select allowed, target_ref from user_audit_log where subject_id = ?", [alice.userId]);
    expect(rows).toEqual([{ allowed: false, target_ref: "x@example.org" }]);
    expect((await alice.rpc("atomicity.audited", { to: "y@example.org" })).result).toBeDefined();
    expect(await count(t, "user_audit_log", "subject_id = ? and allowed", [alice.userId])).toBe(1);
  });

  test("rate-limit hits survive the rollback of the call that made them", async () => {
    await t.rpc("atomicity.limited", { fail: "app", to: "r@example.org" });
    await t.rpc("atomicity.limited", { fail: "internal", to: "r@example.org" });
    const [row] = await sql(t, "select count from rate_limit_counter where bucket = ?", [
      "quota:atomicity:r@example.org",
    ]);
    expect(Number(row?.count)).toBe(2);
    expect(await outbox()).toBe(0);
  });

  test("a write kept on purpose survives while the rest of the call rolls back", async () => {
    await t.rpc("atomicity.survives", { fail: "app", to: "k@example.org" });
    expect(await sql(t, "select template from email_outbox")).toEqual([{ template: "kept" }]);
  });

  test("read-only methods open no transaction", async () => {
    const r = await t.rpc("atomicity.read", {});
    expect(r.result).toEqual({ in_transaction: false });
  });

  test("in a batch each call is its own transaction", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "atomicity.write", params: { to: "1@example.org" } },
      { jsonrpc: "2.0", id: 2, method: "atomicity.write", params: { to: "2@example.org", fail: "app" } },
      { jsonrpc: "2.0", id: 3, method: "atomicity.write", params: { to: "3@example.org" } },
    ];
    const r = await t.post("/rpc", batch);
    expect(r.body.map((x: { error?: unknown }) => x.error === undefined)).toEqual([true, false, true]);
    expect(await sql(t, "select distinct to_email from email_outbox order by to_email")).toEqual([
      { to_email: "1@example.org" },
      { to_email: "3@example.org" },
    ]);
  });

  test("concurrent writing calls never deadlock (PGlite has one connection) and each lands whole or not at all", async () => {
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.rpc(i % 3 === 0 ? "atomicity.limited" : "atomicity.write", {
          to: `c${i}@example.org`,
          ...(i % 2 === 0 ? { fail: "app" } : {}),
        }),
      ),
    );
    expect(replies.filter((r) => r.result)).toHaveLength(12);
    expect(await outbox()).toBe(12 * 4);
  });
});
