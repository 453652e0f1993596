import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { callRaw, serveMcpWithTools, testTool } from "./support.ts";

// Issue 13 item 12: revoking or rotating a key ends its pending approvals; they never replay.
let t: TestApp;
let mcp: Awaited<ReturnType<typeof serveMcpWithTools>>;
let owner: Client;
let key: { key: string; keyId: string };
const PAY = "freezone_test_pay";

const approval = async (sid: string) => (await sql(t, "select * from mcp_approval where sid = ?", [sid]))[0];
async function ask(): Promise<string> {
  const reply = await callRaw(mcp.url, key.key, PAY, { amount: 80, echo: "pay" });
  expect(reply.result.structuredContent).toMatchObject({ status: "pending_approval" });
  return reply.result.structuredContent.approval_id;
}

beforeAll(async () => {
  t = await startTestApp();
  mcp = await serveMcpWithTools(t.app.runtime, [testTool("pay", { amountParam: "amount" })]);
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});
beforeEach(async () => {
  owner = await t.register(`owner${Math.random()}@example.org`);
  key = await generateKey(owner, { approval_threshold: 50 });
});

describe("a revoked or rotated key's approvals", () => {
  test.each(["revoke", "rotate"])(
    "%s rejects its pending approvals with 'key revoked', audited, system as decider",
    async (op) => {
      const sid = await ask();
      const r = await owner.rpc(`apikeyservice.${op}`, { key_id: key.keyId, password: PASSWORD });
      expect(r.error).toBeUndefined();
      expect(await approval(sid)).toMatchObject({
        status: "rejected",
        decision_reason: "key revoked",
        decided_by: null,
      });
      expect((await approval(sid)).decided_at).not.toBeNull();
      const audit = await sql(t, "select action, allowed, context from user_audit_log where target_ref = ?", [sid]);
      expect(audit.map((a) => [a.action, a.allowed])).toContainEqual(["mcp_approval_rejected", true]);
      expect(JSON.parse(audit.find((a) => a.action === "mcp_approval_rejected")?.context)).toMatchObject({
        decided_by: "system",
      });
      const approve = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
      expect(approve.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
      expect(
        await sql(
          t,
          "select 1 from mcp_call_log where approval_id = ? and result_status = 'success' and tool_name = ?",
          [sid, PAY],
        ),
      ).toHaveLength(1);
    },
  );

  test("an approved call waiting for a retry keeps its state; the retry fails with the key's error", async () => {
    const sid = await ask();
    await sql(
      t,
      "update mcp_approval set status = 'approved', execution_error = 'ProviderUnavailable: x' where sid = ?",
      [sid],
    );
    await owner.rpc("apikeyservice.revoke", { key_id: key.keyId, password: PASSWORD });
    expect((await approval(sid)).status).toBe("approved");
    const retry = await owner.rpc("mcpapprovalservice.approve", { approval_id: sid });
    expect(retry.result?.status ?? (await approval(sid)).status).toBe("approved");
    expect((await approval(sid)).execution_error).toMatch(/KeyRevoked/);
  });
});
