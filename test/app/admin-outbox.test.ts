import { beforeEach, describe, expect, test } from "vitest";
import { emailProvider } from "../../src/integrations/email/index.ts";
import { outboxRefusal } from "../../src/services/shared/admin-outbox.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, generateKey, sql } from "../support/helpers.ts";

// Issue 13, newcomer path: administrators read the sandbox outbox while the server runs (session only).
let t: TestApp;
let admin: Client;

beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
});

const list = (params: Record<string, unknown> = {}, who: Client = admin) => who.rpc("adminservice.list_outbox", params);

describe("adminservice.list_outbox", () => {
  test("an administrator's session lists the emails newest first, as sent, with their links", async () => {
    await t.register("ada@example.org");
    t.clock.advance(1);
    await t.callOk("authservice.request_password_reset", { email: "ada@example.org" });
    const r = await list();
    expect(r.result.next_cursor).toBeNull();
    expect(r.result.items.map((e: any) => e.template)).toEqual(["password_reset", "verify_email"]);
    const [reset, verify] = r.result.items;
    expect(reset).toEqual({
      sid: expect.any(String),
      to_email: "ada@example.org",
      subject: "Reset your password",
      template: "password_reset",
      body_text: expect.stringContaining("reset the password"),
      links: [expect.stringMatching(/^http:\/\/localhost:8080\/reset-password\?token=fz/)],
      status: "sent",
      error: null,
      created_at: t.clock.now().toISOString(),
    });
    // The body is the email as sent: the one-time link works (that is the outbox's point on a sandbox).
    const token = new URL(verify.links[0]).searchParams.get("token");
    expect(verify.links[0]).toMatch(/^http:\/\/localhost:8080\/verify-email\?token=/);
    expect((await t.callOk("authservice.verify_email", { token: token! })).status).toBe("verified");
  });

  test("filters by recipient without case, and takes % and _ literally", async () => {
    await t.register("ada@example.org");
    await t.register("a_a@example.org");
    await t.register("bob@example.org");
    const ada = await list({ to_email: "  ADA@Example.org " });
    expect(ada.result.items.map((e: any) => e.to_email)).toEqual(["ada@example.org"]);
    const underscore = await list({ to_email: "a_a@example.org" });
    expect(underscore.result.items.map((e: any) => e.to_email)).toEqual(["a_a@example.org"]);
    expect((await list({ to_email: "%" })).result.items).toEqual([]);
    expect((await list({ to_email: "nobody@example.org" })).result).toEqual({ items: [], next_cursor: null });
  });

  test("pages by cursor: limit rows a page, next_cursor until the end, every email once", async () => {
    for (const name of ["a", "b", "c", "d", "e"]) await t.register(`${name}@example.org`);
    const first = await list({ limit: 2 });
    expect(first.result.items.map((e: any) => e.to_email)).toEqual(["e@example.org", "d@example.org"]);
    const second = await list({ limit: 2, cursor: first.result.next_cursor });
    expect(second.result.items.map((e: any) => e.to_email)).toEqual(["c@example.org", "b@example.org"]);
    const last = await list({ limit: 2, cursor: second.result.next_cursor });
    expect(last.result).toEqual({ items: [expect.objectContaining({ to_email: "a@example.org" })], next_cursor: null });
    expect((await list({ limit: 5 })).result.next_cursor).toBeNull();
  });

  test("the default page is 100 emails; limits outside 1 to 500 and foreign cursors are refused", async () => {
    await t.register("ada@example.org");
    for (const limit of [0, 501, 1.5]) expect(errorOf(await list({ limit })).code).toBe(-32602);
    expect(errorOf(await list({ to_email: `${"a".repeat(250)}@x.org` })).code).toBe(-32602);
    expect(errorOf(await list({ cursor: "not-ours" }))).toMatchObject({
      code: -32006,
      data: { type: "AdminError", variant: "InvalidInput" },
    });
    const many = Array.from(
      { length: 101 },
      (_, i) => `('m${String(i).padStart(3, "0")}', 'x@example.org', 's', 'b', 't', 'sent', now(), now())`,
    );
    await sql(
      t,
      `insert into "email_outbox" (sid, to_email, subject, body_text, template, status, created_at, updated_at) values ${many.join(",")}`,
    );
    const page = await list();
    expect(page.result.items).toHaveLength(100);
    expect(page.result.next_cursor).not.toBeNull();
  });

  test("a refused email is listed as failed, with the provider's reason", async () => {
    await t.call("authservice.register", { email: "ghost@example.invalid", password: "a long passphrase 2026" });
    const r = await list({ to_email: "ghost@example.invalid" });
    expect(r.result.items).toEqual([
      expect.objectContaining({ template: "verify_email", status: "failed", error: "recipient refused" }),
    ]);
  });

  test("reading the outbox is audited as view_logs with the recipient as target", async () => {
    await list({ to_email: "ada@example.org" });
    const rows = await sql(t, `select * from "user_audit_log" where action = 'view_logs'`);
    expect(rows).toEqual([
      expect.objectContaining({ subject_id: admin.userId, target_ref: "ada@example.org", allowed: true }),
    ]);
  });
});

describe("only an administrator's signed-in session reads the outbox", () => {
  test("anonymous callers, members and an administrator's API key are refused and see nothing", async () => {
    await t.register("ada@example.org");
    expect(errorOf(await t.rpc("adminservice.list_outbox", {})).code).toBe(-32001);
    const member = await t.register("member@example.org");
    expect(errorOf(await list({}, member))).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    // The administrator's own key (even with MCP scope) carries user rights only: never the outbox.
    const { key } = await generateKey(admin);
    const viaKey = await t.rpc("adminservice.list_outbox", {}, { "x-api-key": key });
    expect(errorOf(viaKey)).toMatchObject({ code: -32002, data: { type: "AdminError", variant: "AdminOnly" } });
    expect(JSON.stringify(viaKey.body)).not.toContain("token=");
    // Both known callers leave a denial row (the anonymous one has no subject).
    expect(await count(t, "user_audit_log", "action = 'view_logs' and allowed = false")).toBe(2);
  });

  test("the outbox is listed only while the sandbox email provider is in use", () => {
    expect(outboxRefusal(emailProvider(t.config))).toBeNull();
    expect(outboxRefusal({ name: "smtp" })).toEqual({
      refusal: "InvalidState",
      message: "the outbox is listed only while the sandbox email provider is in use",
    });
  });
});
