import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Holder, proposeOk, standardCompany } from "../governance/proposals/support.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, generateKey, sql, type TestKey } from "../support/helpers.ts";
import { callRaw, type Served, serveOnPort } from "./support.ts";

/**
 * Issue 29 item 1: a password an agent sends with a call that takes one (x-password) never rests in an approval;
 * the owner gives it when approving; stored arguments are sealed; an API key reads them with secrets redacted.
 */
let t: TestApp;
let served: Served;
let a: Holder;
let proposal: string;
let key: TestKey;

const TOOL = "freezone_governanceservice_cast_vote";
const row = async (sid: string) => (await sql(t, "select * from mcp_approval where sid = ?", [sid]))[0];
const votes = () => count(t, "vote", "proposal_id = ?", [proposal]);

/** a's agent asks to vote with a's password; the key needs approval for every vote. */
async function ask(): Promise<string> {
  const reply = await callRaw(served.url, key.key, TOOL, {
    proposal_id: proposal,
    voter_id: a.resident,
    vote_value: "for",
    password: PASSWORD,
  });
  if (!reply.result) throw new Error(JSON.stringify(reply));
  expect(reply.result.structuredContent).toMatchObject({ status: "pending_approval" });
  return reply.result.structuredContent.approval_id;
}

beforeAll(async () => {
  t = await startTestApp();
  served = await serveOnPort(t.app.hono);
});
afterAll(async () => {
  await served.close();
  await t.close();
});
beforeEach(async () => {
  const c = await standardCompany(t);
  a = c.a;
  proposal = (await proposeOk(c.director.client, c.company)).sid;
  key = await generateKey(a.client, { approval_required_tools: TOOL });
});

describe("a parked call that takes the account password", () => {
  test("is stored sealed and without the password", async () => {
    const sid = await ask();
    const stored = await row(sid);
    expect(stored.arguments.startsWith("enc:")).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    const got = await a.client.call("mcpapprovalservice.get", { approval_id: sid });
    if (!("result" in got)) throw new Error(JSON.stringify(got));
    expect(JSON.parse(got.result.arguments ?? "")).toEqual({
      proposal_id: proposal,
      voter_id: a.resident,
      vote_value: "for",
    });
    expect(got.result.needs_password).toBe(true);
  });

  test("read with an API key (even read-scope) answers the arguments with secrets redacted, never the password", async () => {
    const sid = await ask();
    const reader = await generateKey(a.client, { mcp_scope: "read" });
    const reads = { "mcpapprovalservice.get": { approval_id: sid }, "mcpapprovalservice.list_pending": {} };
    for (const [method, params] of Object.entries(reads)) {
      const r = await t.post("/rpc", { jsonrpc: "2.0", id: 1, method, params }, { "x-api-key": reader.key });
      expect(r.body.result).toBeDefined();
      expect(JSON.stringify(r.body)).not.toContain(PASSWORD);
      expect(JSON.stringify(r.body)).toContain(a.resident);
    }
  });

  test("approve without the password is PasswordRequired, a wrong one WrongPassword: still pending, no vote", async () => {
    const sid = await ask();
    const none = await a.client.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(none.error).toMatchObject({ code: -32002, data: { variant: "PasswordRequired" } });
    const wrong = await a.client.rpc("mcpapprovalservice.approve", { approval_id: sid, password: "not it" });
    expect(wrong.error).toMatchObject({ code: -32002, data: { variant: "WrongPassword" } });
    expect((await row(sid)).status).toBe("pending");
    expect(await votes()).toBe(0);
  });

  test("approve with the password runs the vote; the password is still not stored", async () => {
    const sid = await ask();
    const r = await a.client.rpc("mcpapprovalservice.approve", { approval_id: sid, password: PASSWORD });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ status: "approved_executed", needs_password: true });
    expect(await votes()).toBe(1);
    expect(JSON.stringify(await row(sid))).not.toContain(PASSWORD);
  });

  test("an administrator cannot approve it (PasswordRequired): only the owner knows the password", async () => {
    const sid = await ask();
    const admin: Client = await t.admin();
    const r = await admin.rpc("mcpapprovalservice.admin_approve", { approval_id: sid });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "PasswordRequired" } });
    expect((await row(sid)).status).toBe("pending");
    expect(await votes()).toBe(0);
  });
});
