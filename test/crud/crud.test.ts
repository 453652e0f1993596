import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { uuidv7 } from "../../src/domain/ids.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { testOrm } from "../support/database.ts";
import { count } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";

let t: TestApp;
let orm: MikroORM;
let alice: Client;
let bob: Client;
let resident: Record<string, unknown>;

beforeEach(async () => {
  t = await startTestApp();
  orm = await testOrm();
  alice = await t.register("alice@example.org");
  bob = await t.register("bob@example.org");
  resident = await insertRow(orm, "DigitalResident", residentValues(alice.userId));
});

describe("generic record operations", () => {
  test("get returns the owner's record flat, with RFC 3339 timestamps and no private field", async () => {
    const r = await alice.rpc("digitalresident.get", { sid: resident["sid"] });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({
      sid: resident["sid"],
      resident_id: resident["resident_id"],
      user_id: alice.userId,
    });
    expect(r.result.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.result).not.toHaveProperty("encrypted_private_key");
  });

  test("get of another user's record is NotFound, leaking nothing", async () => {
    const r = await bob.rpc("digitalresident.get", { sid: resident["sid"] });
    expect(r.error).toMatchObject({ code: -32003, data: { type: "RecordError", variant: "NotFound" } });
  });

  test("get without credentials is refused with -32001", async () => {
    const r = await t.rpc("digitalresident.get", { sid: resident["sid"] });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "MissingCredentials" } });
  });

  test("an invalid bearer token is refused with -32001 InvalidCredentials", async () => {
    const r = await t.rpc("digitalresident.get", { sid: resident["sid"] }, { authorization: "Bearer fzs_nope" });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });

  test("new returns the template of writable fields with defaults or null", async () => {
    const r = await alice.rpc("digitalresident.new", {});
    expect(r.result).toMatchObject({ email: null, first_name: null, auto_renewal: false });
    expect(r.result).not.toHaveProperty("status");
    expect(r.result).not.toHaveProperty("sid");
  });

  test("set on a read-mode record is refused with -32002 and changes nothing", async () => {
    const update = await alice.rpc("digitalresident.set", {
      data: JSON.stringify({ sid: resident["sid"], first_name: "Eve" }),
    });
    expect(update.error).toMatchObject({ code: -32002, data: { type: "RecordError", variant: "Forbidden" } });
    const create = await alice.rpc("digitalresident.set", {
      data: JSON.stringify({ first_name: "Eve", last_name: "X", email: "e@example.org", phone: "1" }),
    });
    expect(create.error).toMatchObject({ code: -32002 });
    expect(await count(t, "digital_resident")).toBe(1);
    expect((await alice.rpc("digitalresident.get", { sid: resident["sid"] })).result.first_name).toBe("Ada");
  });

  test.each([
    ["sid of another row", { sid: "x", status: "active" }, "status"],
    ["created_at", { created_at: "2020-01-01T00:00:00.000Z" }, "created_at"],
    ["an owner field", { user_id: "someone" }, "user_id"],
    ["the status field", { status: "suspended" }, "status"],
    ["a private field", { encrypted_private_key: "x:y" }, "encrypted_private_key"],
    ["an unknown field", { nope: 1 }, "nope"],
  ])("set writing %s is -32602 naming the field", async (_what, data, field) => {
    const r = await alice.rpc("digitalresident.set", { data: JSON.stringify(data) });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain(`"${field}"`);
    expect(await count(t, "digital_resident")).toBe(1);
  });

  test("set with data that is not JSON, or not an object, is -32602", async () => {
    for (const data of ["{nope", "[1,2]", '"text"']) {
      const r = await alice.rpc("digitalresident.set", { data });
      expect(r.error?.code).toBe(-32602);
    }
  });

  test("set with a wrongly typed writable field is -32602 with the path", async () => {
    const r = await alice.rpc("digitalresident.set", { data: JSON.stringify({ first_name: 42 }) });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data.errors[0].path).toBe("/data/first_name");
  });

  test("delete of a visible read-mode record is -32002 and of an invisible one NotFound", async () => {
    const own = await alice.rpc("digitalresident.delete", { sid: resident["sid"] });
    expect(own.error).toMatchObject({ code: -32002 });
    const other = await bob.rpc("digitalresident.delete", { sid: resident["sid"] });
    expect(other.error).toMatchObject({ code: -32003 });
    expect(await count(t, "digital_resident")).toBe(1);
  });

  test("append-only records have no delete method", async () => {
    const r = await alice.rpc("userauditlog.delete", { sid: "x" });
    expect(r.error?.code).toBe(-32601);
  });

  test("find on a field that is not indexed is -32602", async () => {
    const r = await alice.rpc("digitalresident.find", { query: JSON.stringify({ phone: "+255700000000" }) });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain("phone");
  });

  test("find on indexed fields returns only the caller's rows", async () => {
    await insertRow(orm, "DigitalResident", residentValues(bob.userId, { last_name: "Lovelace" }));
    const r = await alice.rpc("digitalresident.find", { query: JSON.stringify({ last_name: "Lovelace" }) });
    expect(r.result.items).toHaveLength(1);
    expect(r.result.items[0].user_id).toBe(alice.userId);
    expect(r.result.next_cursor).toBeNull();
  });

  test("list pages through sids newest first with an opaque cursor", async () => {
    // One personal resident per user: the five rows belong to five users, and an administrator pages through them.
    for (let i = 0; i < 4; i++) await insertRow(orm, "DigitalResident", residentValues(uuidv7()));
    const admin = await t.admin();
    const first = await admin.rpc("digitalresident.list", { limit: 3 });
    expect(first.result.sids).toHaveLength(3);
    expect(first.result.next_cursor).toEqual(expect.any(String));
    const second = await admin.rpc("digitalresident.list", { limit: 3, cursor: first.result.next_cursor });
    expect(second.result.sids).toHaveLength(2);
    expect(second.result.next_cursor).toBeNull();
    const all = [...first.result.sids, ...second.result.sids];
    expect(new Set(all).size).toBe(5);
    expect(all).toEqual([...all].sort().reverse());
  });

  test("list limit outside 1..1000 is -32602", async () => {
    expect((await alice.rpc("digitalresident.list", { limit: 0 })).error?.code).toBe(-32602);
    expect((await alice.rpc("digitalresident.list", { limit: 1001 })).error?.code).toBe(-32602);
  });

  test("secret fields never leave through CRUD, even for administrators", async () => {
    const admin = await t.admin();
    const user = await admin.rpc("user.get", { sid: alice.userId });
    expect(user.result.email).toBe("alice@example.org");
    expect(user.result).not.toHaveProperty("password_hash");
    expect(user.result).not.toHaveProperty("totp_secret");
    const found = await admin.rpc("user.find", { query: JSON.stringify({ email: "alice@example.org" }) });
    expect(found.result.items[0]).not.toHaveProperty("password_hash");
  });

  test("records without an owner are visible to administrators only: a plain user's get is NotFound", async () => {
    const r = await alice.rpc("user.get", { sid: alice.userId });
    expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });

  test("an administrator's session sees any record through CRUD", async () => {
    const admin = await t.admin();
    const r = await admin.rpc("digitalresident.get", { sid: resident["sid"] });
    expect(r.result.sid).toBe(resident["sid"]);
  });

  test("users are read-only through CRUD, for administrators too: changes go through business operations", async () => {
    const admin = await t.admin();
    const edit = await admin.rpc("user.set", { data: JSON.stringify({ sid: alice.userId, first_name: "Alice" }) });
    expect(edit.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const refused = await admin.rpc("user.set", { data: JSON.stringify({ sid: alice.userId, roles: ["admin"] }) });
    expect(refused.error?.code).toBe(-32602);
    expect((await admin.rpc("user.get", { sid: alice.userId })).result).toMatchObject({
      first_name: null,
      roles: ["user"],
    });
  });
});
