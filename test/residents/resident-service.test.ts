import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  createPartner,
  createResident,
  insertKycSession,
  insertPayment,
  insertProxy,
  insertResident,
  insertSignature,
  residentData,
  residentRow,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

const RESIDENT_ID = /^FZ-2026-RA\d{6}$/;
const EXTERNAL_ID = /^FZX-[0-9A-HJKMNP-TV-Z]{10}$/;

describe("residentservice.create", () => {
  test("creates the caller's pending personal resident with formatted ids", async () => {
    const r = await createResident(ada, { subscription_plan: "1_year", auto_renewal: true });
    expect(r).toMatchObject({
      resident_id: "FZ-2026-RA000001",
      external_id: expect.stringMatching(EXTERNAL_ID),
      user_id: ada.userId,
      partner_id: null,
      email: "ada@example.org",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "+255700000001",
      status: "pending",
      resident_type: "personal",
      source: "direct",
      public_key: null,
      keypair_version: 0,
      subscription_plan: "1_year",
      auto_renewal: true,
      subscription_start_date: null,
      subscription_end_date: null,
      subscription_status: "none",
      anonymity_enabled: false,
      anonymity_changed_at: null,
    });
    const second = await createResident(bob, { email: "bob@example.org" });
    expect(second.resident_id).toBe("FZ-2026-RA000002");
    expect(second.external_id).not.toBe(r.external_id);
  });

  test("the user_id is the caller's: naming another user is refused and writes nothing", async () => {
    const r = await ada.call("residentservice.create", { user_id: bob.userId, data: residentData() });
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { type: "ResidentError", variant: "NotOwner" } });
    expect(await count(t, "digital_resident")).toBe(0);
  });

  test("a second personal resident of a user is AlreadyExists and takes no number", async () => {
    await createResident(ada);
    const again = await ada.call("residentservice.create", { data: residentData({ first_name: "Augusta" }) });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { type: "ResidentError", variant: "AlreadyExists" } });
    expect(await count(t, "digital_resident")).toBe(1);
    expect((await createResident(bob)).resident_id).toBe("FZ-2026-RA000002");
  });

  test.each([
    ["email", { email: "not-an-address" }],
    ["first_name", { first_name: "   " }],
    ["phone", { phone: "0700 000 000" }],
    ["phone", { phone: "+1 23" }],
  ])("invalid %s is InvalidInput and writes nothing", async (field, data) => {
    const r = await ada.call("residentservice.create", { data: residentData(data) });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field } });
    expect(await count(t, "digital_resident")).toBe(0);
    expect(await count(t, "counter")).toBe(0);
  });

  test("control characters in names and unknown fields are refused by the schema", async () => {
    const ctl = await ada.rpc("residentservice.create", { data: residentData({ last_name: "Love\u0007lace" }) });
    expect(ctl.error).toMatchObject({ code: -32602 });
    const extra = await ada.rpc("residentservice.create", { data: { ...residentData(), status: "active" } });
    expect(extra.error).toMatchObject({ code: -32602 });
    expect(await count(t, "digital_resident")).toBe(0);
  });

  test("a reseller key cannot create a personal resident (Forbidden)", async () => {
    const partner = await createPartner(t, await t.admin());
    const r = await partner.rpc("residentservice.create", { data: residentData() });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "ResidentError", variant: "Forbidden" } });
    expect(await count(t, "digital_resident")).toBe(0);
  });

  test("reserved fields are stored and returned", async () => {
    const r = await createResident(ada, { is_tanzanian_citizen: true, physical_residence_zanzibar: false });
    expect(r).toMatchObject({ is_tanzanian_citizen: true, physical_residence_zanzibar: false, risk_tier: null });
    await sql(
      t,
      `update "digital_resident" set risk_tier = 'pep', kyc_refreshed_at = ?, kyc_next_refresh_at = ? where resident_id = ?`,
      ["2026-11-01T00:00:00.000Z", "2027-11-01T00:00:00.000Z", r.resident_id],
    );
    expect(await ada.callOk("residentservice.get", { resident_id: r.resident_id })).toMatchObject({
      is_tanzanian_citizen: true,
      physical_residence_zanzibar: false,
      risk_tier: "pep",
      kyc_refreshed_at: "2026-11-01T00:00:00.000Z",
      kyc_next_refresh_at: "2027-11-01T00:00:00.000Z",
    });
    const updated = await ada.callOk("residentservice.update", {
      resident_id: r.resident_id,
      data: { is_tanzanian_citizen: null },
    });
    expect(updated.is_tanzanian_citizen).toBeNull();
  });

  test("digitalresidentservice is the same service: the alias creates and reads", async () => {
    const r = await ada.rpc("digitalresidentservice.create", { data: residentData() });
    expect(r.result.resident_id).toMatch(RESIDENT_ID);
    const read = await ada.rpc("digitalresidentservice.get", { resident_id: r.result.resident_id });
    expect(read.result).toEqual(await ada.callOk("residentservice.get", { resident_id: r.result.resident_id }));
  });
});

describe("who sees a resident", () => {
  test("the owner and an administrator read it; another user, an unknown id: NotFound alike", async () => {
    const r = await createResident(ada);
    expect((await ada.callOk("residentservice.get", { resident_id: r.resident_id })).sid).toBe(r.sid);
    const admin = await t.admin();
    expect((await admin.callOk("residentservice.get", { resident_id: r.resident_id })).sid).toBe(r.sid);
    const foreign = errorOf(await bob.call("residentservice.get", { resident_id: r.resident_id }));
    const unknown = errorOf(await bob.call("residentservice.get", { resident_id: "FZ-2026-RA999999" }));
    expect(foreign).toMatchObject({ code: -32003, data: { type: "ResidentError", variant: "NotFound" } });
    expect(unknown).toEqual(foreign);
  });

  test("an administrator's API key carries user rights only: NotFound", async () => {
    const r = await createResident(ada);
    const admin = await t.admin();
    const key = (
      await admin.rpc("apikeyservice.generate_personal", { name: "k", password: "correct horse battery staple 42" })
    ).result.api_key;
    const viaKey = await t.rpc("residentservice.get", { resident_id: r.resident_id }, { "x-api-key": key });
    expect(viaKey.error).toMatchObject({ code: -32003 });
  });

  test("a caller holding an effective proxy reads it; a revoked or expired proxy does not", async () => {
    const target = await createResident(ada);
    const principal = await createResident(bob, { email: "bob@example.org" });
    await insertProxy(t, principal.resident_id, target.resident_id);
    expect((await bob.callOk("residentservice.get", { resident_id: target.resident_id })).sid).toBe(target.sid);
    await sql(t, `update "proxy" set valid_to = ?`, [t.clock.now().toISOString()]);
    expect(errorOf(await bob.call("residentservice.get", { resident_id: target.resident_id })).code).toBe(-32003);
    await sql(t, `update "proxy" set valid_to = null, status = 'revoked'`);
    expect(errorOf(await bob.call("residentservice.get", { resident_id: target.resident_id })).code).toBe(-32003);
  });

  test("a partner reads the residents it onboarded through its reseller key; nobody else's", async () => {
    const admin = await t.admin();
    const acme = await createPartner(t, admin, "Acme");
    const other = await createPartner(t, admin, "Other");
    const onboarded = await insertResident(t, {
      user_id: null,
      partner_id: acme.partnerId,
      resident_type: "partner_created",
      source: "partner",
    });
    const others = await insertResident(t, {
      user_id: null,
      partner_id: other.partnerId,
      resident_type: "partner_created",
      source: "partner",
    });
    const personal = (await createResident(ada)).resident_id;
    expect((await acme.rpc("residentservice.get", { resident_id: onboarded })).result.partner_id).toBe(acme.partnerId);
    // Two absent user ids never match across partners.
    expect((await acme.rpc("residentservice.get", { resident_id: others })).error).toMatchObject({ code: -32003 });
    expect((await acme.rpc("residentservice.get", { resident_id: personal })).error).toMatchObject({ code: -32003 });
    // A personal caller never owns a partner's resident.
    expect(errorOf(await ada.call("residentservice.get", { resident_id: onboarded })).code).toBe(-32003);
    const listed = await acme.rpc("residentservice.list", { page: 1, page_size: 0 });
    expect(listed.result.items.map((i: any) => i.resident_id)).toEqual([onboarded]);
  });

  test("resident_type and source decide nothing: ownership follows the pair alone", async () => {
    const partner = await createPartner(t, await t.admin());
    const directLooking = await insertResident(t, {
      user_id: null,
      partner_id: partner.partnerId,
      resident_type: "personal",
      source: "direct",
    });
    const partnerLooking = await insertResident(t, {
      user_id: ada.userId,
      partner_id: null,
      resident_type: "partner_created",
      source: "partner",
    });
    expect((await partner.rpc("residentservice.get", { resident_id: directLooking })).result).toBeDefined();
    expect(errorOf(await ada.call("residentservice.get", { resident_id: directLooking })).code).toBe(-32003);
    expect((await ada.callOk("residentservice.get", { resident_id: partnerLooking })).source).toBe("partner");
    expect((await partner.rpc("residentservice.get", { resident_id: partnerLooking })).error).toMatchObject({
      code: -32003,
    });
  });
});

describe("residentservice.list", () => {
  test("pages the caller's own residents newest first", async () => {
    const partner = await createPartner(t, await t.admin());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await insertResident(t, { user_id: null, partner_id: partner.partnerId }));
    await createResident(ada);
    const newestFirst = [...ids].reverse();
    const first = (await partner.rpc("residentservice.list", { page: 1, page_size: 2 })).result;
    expect(first).toMatchObject({ total: 3, page: 1, page_size: 2 });
    const second = (await partner.rpc("residentservice.list", { page: 2, page_size: 2 })).result;
    expect([...first.items, ...second.items].map((i: any) => i.resident_id)).toEqual(newestFirst);
    const all = (await partner.rpc("residentservice.list", { page: 1, page_size: 0 })).result;
    expect(all).toMatchObject({ total: 3, page_size: 20 });
    expect(all.items[0]).toMatchObject({ status: "active", subscription_status: "none" });
    const own = await ada.callOk("residentservice.list", { page: 1, page_size: 0 });
    expect(own.items.map((i) => i.email)).toEqual(["ada@example.org"]);
  });

  test.each([[{ page: 0, page_size: 10 }], [{ page: 1, page_size: 101 }], [{ page: 1, page_size: -1 }]])(
    "page bounds are InvalidInput: %o",
    async (params) => {
      expect(errorOf(await ada.call("residentservice.list", params))).toMatchObject({
        code: -32006,
        data: { type: "ResidentError", variant: "InvalidInput" },
      });
    },
  );
});

describe("residentservice.update", () => {
  test("changes contact fields; omitted fields stay", async () => {
    const r = await createResident(ada);
    t.clock.advance(60);
    const u = await ada.callOk("residentservice.update", {
      resident_id: r.resident_id,
      data: { email: "Ada@Example.ORG ", phone: "+44 20 7946 0000" },
    });
    expect(u).toMatchObject({ email: "ada@example.org", phone: "+442079460000", first_name: "Ada" });
    expect(u.updated_at).toBe(t.clock.now().toISOString());
    expect((await residentRow(t, r.resident_id))?.phone).toBe("+442079460000");
  });

  test("names are fixed once the identity is verified; the same name again is accepted", async () => {
    const r = await createResident(ada);
    await sql(t, `update "digital_resident" set kyc_provider_id = 'idv-1' where resident_id = ?`, [r.resident_id]);
    const renamed = await ada.call("residentservice.update", {
      resident_id: r.resident_id,
      data: { last_name: "Byron" },
    });
    expect(errorOf(renamed)).toMatchObject({ code: -32005, data: { variant: "InvalidState", fields: ["last_name"] } });
    expect((await residentRow(t, r.resident_id))?.last_name).toBe("Lovelace");
    const same = await ada.callOk("residentservice.update", {
      resident_id: r.resident_id,
      data: { last_name: "Lovelace", phone: "+255700000009" },
    });
    expect(same.phone).toBe("+255700000009");
  });

  test("no field is InvalidInput; a stranger NotFound; a proxy NotOwner; nothing changes", async () => {
    const r = await createResident(ada);
    expect(errorOf(await ada.call("residentservice.update", { resident_id: r.resident_id, data: {} }))).toMatchObject({
      code: -32006,
      data: { variant: "InvalidInput" },
    });
    const change = { resident_id: r.resident_id, data: { first_name: "Eve" } };
    expect(errorOf(await bob.call("residentservice.update", change))).toMatchObject({ code: -32003 });
    const principal = await createResident(bob, { email: "bob@example.org" });
    await insertProxy(t, principal.resident_id, r.resident_id);
    expect(errorOf(await bob.call("residentservice.update", change))).toMatchObject({
      code: -32002,
      data: { type: "ResidentError", variant: "NotOwner" },
    });
    expect((await residentRow(t, r.resident_id))?.first_name).toBe("Ada");
  });

  test("an administrator may change it, and that is an AdminAction", async () => {
    const r = await createResident(ada);
    const admin = await t.admin();
    await admin.callOk("residentservice.update", { resident_id: r.resident_id, data: { phone: "+255711111111" } });
    const actions = await sql(
      t,
      `select action, target_type, target_id from "admin_action" where action = 'update_resident'`,
    );
    expect(actions).toEqual([{ action: "update_resident", target_type: "resident", target_id: r.resident_id }]);
  });
});

describe("residentservice.delete", () => {
  test("the owner deletes a pending resident", async () => {
    const r = await createResident(ada);
    expect(await ada.callOk("residentservice.delete", { resident_id: r.resident_id })).toEqual({
      sid: r.sid,
      deleted: true,
    });
    expect(await count(t, "digital_resident")).toBe(0);
    // One personal resident per user: after deletion a new one may be made.
    await createResident(ada);
  });

  test("an active resident is kept (InvalidState)", async () => {
    const id = await insertResident(t, {
      user_id: ada.userId,
      subscription_start_date: new Date("2026-01-01T00:00:00.000Z"),
    });
    expect(errorOf(await ada.call("residentservice.delete", { resident_id: id }))).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status: "active" },
    });
    expect(await count(t, "digital_resident")).toBe(1);
  });

  test.each(["payment", "role", "signature"])("a pending resident with a %s is kept (InvalidState)", async (what) => {
    const r = await createResident(ada);
    if (what === "payment") await insertPayment(t, ada.userId, r.resident_id);
    if (what === "signature") {
      await insertSignature(
        t,
        ada.userId,
        { sid: "contract-1", version: "1" },
        { entity_type: "digital_resident", entity_id: r.sid },
      );
    }
    if (what === "role") {
      await sql(
        t,
        `insert into "company_role" (sid, company_id, subject_id, role, valid_from, classification_scope, created_by, created_at, updated_at)
         values ('role-1', 'FZ-2026-Y000001', ?, 'shareholder', now(), '{}', 'x', now(), now())`,
        [r.resident_id],
      );
    }
    expect(errorOf(await ada.call("residentservice.delete", { resident_id: r.resident_id }))).toMatchObject({
      code: -32005,
      data: { type: "ResidentError", variant: "InvalidState" },
    });
    expect(await count(t, "digital_resident")).toBe(1);
  });

  test("a pending payment or a KYC session does not keep it; a stranger NotFound, a proxy NotOwner", async () => {
    const r = await createResident(ada);
    await insertPayment(t, ada.userId, r.resident_id, { status: "pending", confirmed_at: null });
    await insertKycSession(t, ada.userId, r.resident_id, { status: "pending" });
    expect(errorOf(await bob.call("residentservice.delete", { resident_id: r.resident_id })).code).toBe(-32003);
    const principal = await createResident(bob, { email: "bob@example.org" });
    await insertProxy(t, principal.resident_id, r.resident_id);
    expect(errorOf(await bob.call("residentservice.delete", { resident_id: r.resident_id })).data.variant).toBe(
      "NotOwner",
    );
    expect((await ada.callOk("residentservice.delete", { resident_id: r.resident_id })).deleted).toBe(true);
  });
});

describe("residentservice.update_subscription", () => {
  test("sets the plan and auto-renewal without moving dates", async () => {
    const r = await createResident(ada);
    const s = await ada.callOk("residentservice.update_subscription", {
      resident_id: r.resident_id,
      plan: "3_years",
      auto_renewal: true,
    });
    expect(s).toEqual({
      resident_id: r.resident_id,
      subscription_plan: "3_years",
      auto_renewal: true,
      subscription_start_date: null,
      subscription_end_date: null,
      subscription_status: "none",
    });
  });

  test.each(["1_month", "monthly", "one_year", ""])("plan %j is InvalidInput", async (plan) => {
    const r = await createResident(ada);
    const reply = await ada.call("residentservice.update_subscription", {
      resident_id: r.resident_id,
      plan,
      auto_renewal: false,
    });
    expect(errorOf(reply)).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "plan" } });
    expect((await residentRow(t, r.resident_id))?.subscription_plan).toBeNull();
  });

  test("a proxy gets NotOwner and a stranger NotFound", async () => {
    const r = await createResident(ada);
    const change = { resident_id: r.resident_id, plan: "1_year", auto_renewal: true };
    expect(errorOf(await bob.call("residentservice.update_subscription", change)).code).toBe(-32003);
    const principal = await createResident(bob, { email: "bob@example.org" });
    await insertProxy(t, principal.resident_id, r.resident_id);
    expect(errorOf(await bob.call("residentservice.update_subscription", change)).data.variant).toBe("NotOwner");
  });
});

describe("residentservice.get_card", () => {
  test("the caller's own resident card; NotFound without one", async () => {
    expect(errorOf(await ada.call("residentservice.get_card", {}))).toMatchObject({ code: -32003 });
    const r = await createResident(ada);
    expect(await ada.callOk("residentservice.get_card", {})).toEqual({
      resident_id: r.resident_id,
      external_id: r.external_id,
      first_name: "Ada",
      last_name: "Lovelace",
      display_name: "Ada Lovelace",
      status: "pending",
      resident_type: "personal",
      member_since: null,
      subscription_status: "none",
      subscription_end_date: null,
      public_key: null,
      keypair_version: 0,
      anonymity_enabled: false,
    });
    expect(errorOf(await bob.call("residentservice.get_card", { user_id: ada.userId })).code).toBe(-32002);
  });
});

describe("residentservice.set_anonymity", () => {
  test("the owner flips it; anonymity_changed_at moves on each flip only", async () => {
    const r = await createResident(ada);
    t.clock.advance(10);
    const on = await ada.callOk("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: true });
    const firstFlip = t.clock.now().toISOString();
    expect(on).toMatchObject({ anonymity_enabled: true, anonymity_changed_at: firstFlip });
    t.clock.advance(10);
    const again = await ada.callOk("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: true });
    expect(again).toMatchObject({ anonymity_enabled: true, anonymity_changed_at: firstFlip });
    expect(new Date((await residentRow(t, r.resident_id))?.anonymity_changed_at).toISOString()).toBe(firstFlip);
    t.clock.advance(10);
    const off = await ada.callOk("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: false });
    expect(off).toMatchObject({ anonymity_enabled: false, anonymity_changed_at: t.clock.now().toISOString() });
  });

  test("a proxy does not qualify (NotOwner), nor an administrator; a stranger gets NotFound; nothing changes", async () => {
    const r = await createResident(ada);
    const principal = await createResident(bob, { email: "bob@example.org" });
    await insertProxy(t, principal.resident_id, r.resident_id);
    const asProxy = await bob.call("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: true });
    expect(errorOf(asProxy)).toMatchObject({ code: -32002, data: { type: "ResidentError", variant: "NotOwner" } });
    const admin = await t.admin();
    const asAdmin = await admin.call("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: true });
    expect(errorOf(asAdmin)).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    const carol = await t.register("carol@example.org");
    const stranger = await carol.call("residentservice.set_anonymity", { resident_id: r.resident_id, enabled: true });
    expect(errorOf(stranger)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await residentRow(t, r.resident_id)).toMatchObject({ anonymity_enabled: false, anonymity_changed_at: null });
  });

  test("caller_user_id comes from the verified caller: naming the owner from another account is refused", async () => {
    const r = await createResident(ada);
    const reply = await bob.call("residentservice.set_anonymity", {
      resident_id: r.resident_id,
      enabled: true,
      caller_user_id: ada.userId,
    });
    expect(errorOf(reply)).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect((await residentRow(t, r.resident_id))?.anonymity_enabled).toBe(false);
  });

  test("a partner's reseller key owns its onboarded resident's flag", async () => {
    const partner = await createPartner(t, await t.admin());
    const id = await insertResident(t, { user_id: null, partner_id: partner.partnerId });
    const r = await partner.rpc("residentservice.set_anonymity", { resident_id: id, enabled: true });
    expect(r.result).toMatchObject({ anonymity_enabled: true, anonymity_changed_at: t.clock.now().toISOString() });
  });
});
