import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { testOrm } from "../support/database.ts";
import { insertApiKey, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";

let t: TestApp;
let orm: MikroORM;
let alice: Client;

beforeEach(async () => {
  t = await startTestApp();
  orm = await testOrm();
  alice = await t.register("alice@example.org");
});

const auditRows = () => sql(t, `select * from "user_audit_log" order by sid`);

describe("x-auth", () => {
  test("an administrator operation refuses a plain user with -32002 AdminOnly", async () => {
    const r = await alice.rpc("messageservice.create_system_message", { user_id: alice.userId, title: "t", body: "b" });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
  });

  test("an administrator's API key carries no administrator power", async () => {
    const admin = await t.admin();
    const { key } = await insertApiKey(orm, admin.userId);
    // Through the key the administrator sees what its owner as a user sees: not another user's record.
    const viaKey = await t.rpc("user.get", { sid: alice.userId }, { "x-api-key": key });
    expect(viaKey.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const adminOp = await t.rpc("adminservice.list_admin_actions", {}, { "x-api-key": key });
    expect(adminOp.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    const viaSession = await admin.rpc("user.get", { sid: alice.userId });
    expect(viaSession.result.sid).toBe(alice.userId);
  });

  test("a session-only operation refuses an API key with -32002 SessionRequired", async () => {
    const { key } = await insertApiKey(orm, alice.userId);
    const r = await t.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD }, { "x-api-key": key });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "SessionRequired" } });
  });

  test("an internal operation is refused to everyone from outside, administrators included", async () => {
    const admin = await t.admin();
    const r = await admin.rpc("registrationservice.update_status", {
      user_id: alice.userId,
      entity_type: "resident",
      status: "kyc_pending",
    });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "Internal" } });
  });

  test("anonymous operations need no credentials and ignore bad ones", async () => {
    const r = await t.rpc(
      "authservice.login",
      { email: "alice@example.org", password: PASSWORD },
      { authorization: "Bearer fzs_bogus" },
    );
    expect(r.result.user_id).toBe(alice.userId);
  });
});

describe("API keys on /rpc", () => {
  test("a personal key acts as its owner", async () => {
    const { key } = await insertApiKey(orm, alice.userId);
    const r = await t.rpc("authservice.me", {}, { "x-api-key": key });
    expect(r.result).toMatchObject({ user_id: alice.userId, email: "alice@example.org" });
  });

  test("a revoked key is refused with -32001 KeyRevoked", async () => {
    const { key } = await insertApiKey(orm, alice.userId, { is_active: false });
    const r = await t.rpc("authservice.me", {}, { "x-api-key": key });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
  });

  test("an expired key is refused with -32001 KeyExpired", async () => {
    const { key } = await insertApiKey(orm, alice.userId, { expires_at: new Date("2026-11-23T09:59:59.000Z") });
    const r = await t.rpc("authservice.me", {}, { "x-api-key": key });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "KeyExpired" } });
  });

  test("a key with a wrong prefix is refused with -32001 InvalidCredentials", async () => {
    const r = await t.rpc("authservice.me", {}, { "x-api-key": "sk_live_abcdef" });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });
});

describe("caller binding", () => {
  test("an omitted caller-bound user id is filled from the caller", async () => {
    const r = await alice.rpc("authservice.me", {});
    expect(r.result.user_id).toBe(alice.userId);
  });

  test("a caller-bound user id naming someone else is refused with -32002", async () => {
    const bob = await t.register("bob@example.org");
    const r = await alice.rpc("authservice.me", { user_id: bob.userId });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
  });

  test("a resident actor param must be a resident the caller owns", async () => {
    const bob = await t.register("bob@example.org");
    const bobs = await insertRow(orm, "DigitalResident", residentValues(bob.userId));
    const r = await alice.rpc("governanceservice.cast_vote", {
      proposal_id: "p1",
      voter_id: bobs["resident_id"],
      vote_value: "for",
      password: PASSWORD,
    });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
  });
});

describe("password re-entry", () => {
  test("a gated call without the password is -32002 PasswordRequired", async () => {
    const r = await alice.rpc("governanceservice.cast_vote", { proposal_id: "p1", voter_id: "x", vote_value: "for" });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "PasswordRequired" } });
  });

  test("a wrong password is -32002 WrongPassword and the handler does not run", async () => {
    // apikeyservice.revoke has no x-target: the password is the first check that reads the database.
    const r = await alice.rpc("apikeyservice.revoke", { key_id: "no-such-key", password: "not the password" });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "WrongPassword" } });
  });

  test("a target is checked before the password: an unknown proposal is NotFound whatever the password", async () => {
    const mine = await insertRow(orm, "DigitalResident", residentValues(alice.userId));
    const r = await alice.rpc("governanceservice.cast_vote", {
      proposal_id: "p1",
      voter_id: mine["resident_id"],
      vote_value: "for",
      password: "not the password",
    });
    expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("audit rows", () => {
  test("an audited operation refused to a signed-in caller writes a row with allowed false", async () => {
    const r = await alice.rpc("creditservice.add_bonus", { user_id: alice.userId, amount: 5, description: "gift" });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject_id: alice.userId, action: "grant_bonus", allowed: false });
  });

  test("refusals of unauthenticated callers write no audit row (there is no subject)", async () => {
    await t.rpc("creditservice.add_bonus", { user_id: alice.userId, amount: 5, description: "gift" });
    expect(await auditRows()).toHaveLength(0);
  });
});
