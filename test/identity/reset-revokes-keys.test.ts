import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql } from "../support/helpers.ts";
import { lastEmail } from "./support.ts";

// Issue 13 item 6: account recovery revokes the API keys a thief may have minted; a password change keeps them.
let t: TestApp;
let ada: Client;
const NEW = "another long passphrase 77";

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

const me = (key: string) => t.rpc("authservice.me", {}, { "x-api-key": key });

describe("API keys and password changes", () => {
  test("reset_password revokes every personal key, each audited revoke_api_key; the email says so", async () => {
    const one = await generateKey(ada, { mcp_scope: null });
    const two = await generateKey(ada);
    const assistant = (await ada.rpc("apikeyservice.mint_assistant_key", {})).result;
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const mail = await lastEmail(t, "ada@example.org", "password_reset");
    expect(mail?.body).toContain("revokes your API keys");
    const r = await t.rpc("authservice.reset_password", { token: mail?.code, new_password: NEW });
    expect(r.result?.changed).toBe(true);
    for (const key of [one.key, two.key, assistant.api_key]) {
      expect((await me(key)).error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
    }
    const audits = await sql(t, "select target_ref from user_audit_log where action = 'revoke_api_key' and allowed");
    expect(audits.map((a) => a.target_ref).sort()).toEqual([one.keyId, two.keyId, assistant.key_id].sort());
  });

  test("change_password keeps the keys working", async () => {
    const key = await generateKey(ada, { mcp_scope: null });
    const r = await ada.rpc("authservice.change_password", { old_password: PASSWORD, new_password: NEW });
    expect(r.result?.changed).toBe(true);
    expect((await me(key.key)).result.user_id).toBe(ada.userId);
  });
});
