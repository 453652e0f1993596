import { beforeEach, describe, expect, test } from "vitest";
import {
  type PartnerClient,
  registration,
  resellerKey,
  rotation,
  sign,
  signedRequest,
  signingKey,
} from "../journeys/partner-support.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf } from "../support/helpers.ts";

// partnerservice.register_signing_key / rotate_signing_key / get_signing_keys / retire_signing_key (issue 30):
// who may call, what is refused (and that a refusal writes nothing but its audit row), the history.

let t: TestApp;
let admin: Client;
let acme: PartnerClient;
let names = 0;

async function newPartner(): Promise<PartnerClient> {
  names += 1;
  return resellerKey(t, await admin.callOk("partnerservice.create_partner", { name: `Partner ${names}` }));
}

beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  acme = await newPartner();
});

const keyRows = () => count(t, "public_key_history", "entity_type = 'partner'");
const currentKey = async (p: PartnerClient) => (await p.callOk("partnerservice.get_signing_keys")).signing_public_key;
const deniedRows = (method: string) =>
  count(t, "user_audit_log", `action = 'other' and not allowed and context like '%${method}%'`);

describe("who may register or rotate a partner's signing key", () => {
  test("another partner's key naming acme is NotOwner; nothing written, the denial audited", async () => {
    const globex = await newPartner();
    const k = signingKey();
    const r = await globex.call("partnerservice.register_signing_key", {
      partner_id: acme.partnerId,
      ...registration(acme.partnerId, 1, k),
    });
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { type: "PartnerError", variant: "NotOwner" } });
    expect(await keyRows()).toBe(0);
    expect(await currentKey(acme)).toBeNull();
    expect(await deniedRows("register_signing_key")).toBe(1);
  });

  test("a signed-in resident (session) and a personal key are refused: a reseller key is required", async () => {
    const ada = await t.register("ada@example.org");
    const k = signingKey();
    const params = { partner_id: acme.partnerId, ...registration(acme.partnerId, 1, k) };
    expect(errorOf(await ada.call("partnerservice.register_signing_key", params))).toMatchObject({
      code: -32002,
      data: { variant: "Forbidden" },
    });
    const personal = await ada.callOk("apikeyservice.generate_personal", { name: "script", password: PASSWORD });
    const r = await t.rpc("partnerservice.register_signing_key", params, { "x-api-key": personal.api_key });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    expect(await keyRows()).toBe(0);
  });

  test("anonymous is -32001; an administrator cannot register for a partner", async () => {
    const k = signingKey();
    const params = { partner_id: acme.partnerId, ...registration(acme.partnerId, 1, k) };
    expect((await t.rpc("partnerservice.register_signing_key", params)).error).toMatchObject({ code: -32001 });
    expect(errorOf(await admin.call("partnerservice.register_signing_key", params)).code).toBe(-32002);
    expect(await keyRows()).toBe(0);
  });

  test("an inactive partner's key is revoked with it: registration and rotation are -32001", async () => {
    const k = signingKey();
    await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k));
    await admin.callOk("partnerservice.deactivate_partner", { partner_id: acme.partnerId });
    const r = await acme.call("partnerservice.rotate_signing_key", rotation(acme.partnerId, 2, signingKey(), k));
    expect(errorOf(r).code).toBe(-32001);
    expect(await keyRows()).toBe(1);
  });
});

describe("register_signing_key", () => {
  test("stores the key as version 1 with its history row; a registered partner's requests verify", async () => {
    const k = signingKey();
    const r = await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k));
    expect(r).toMatchObject({ partner_id: acme.partnerId, signing_public_key: k.publicHex, current_version: 1 });
    expect(await keyRows()).toBe(1);
    const submitted = await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedRequest(acme.partnerId, k, { client_email: "c@example.org", client_name: "Client" }),
    );
    expect(submitted.status).toBe("pending");
  });

  test.each([
    ["too short", "ab".repeat(31)],
    ["upper case", "D75A980182B10AB7D54BFED3C964073A0EE172F3DAA62325AF021A68F707511A"],
    ["not a point", "02".repeat(32)],
    ["small order", "01".padEnd(64, "0")],
  ])("a malformed public key (%s) is InvalidInput naming public_key; nothing written", async (_, bad) => {
    const k = signingKey();
    const r = await acme.call("partnerservice.register_signing_key", {
      public_key: bad,
      proof_signature: sign(k, "x"),
    });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "public_key" } });
    expect(await keyRows()).toBe(0);
    expect(await currentKey(acme)).toBeNull();
  });

  test("a proof by another key, over another version or partner, is InvalidSignature; nothing written", async () => {
    const k = signingKey();
    const other = signingKey();
    const wrongKey = {
      public_key: k.publicHex,
      proof_signature: registration(acme.partnerId, 1, other).proof_signature,
    };
    const wrongVersion = { ...registration(acme.partnerId, 2, k) };
    const wrongPartner = { ...registration("another-partner", 1, k) };
    for (const params of [wrongKey, wrongVersion, wrongPartner]) {
      const r = await acme.call("partnerservice.register_signing_key", params);
      expect(errorOf(r)).toMatchObject({
        code: -32006,
        data: { variant: "InvalidSignature", field: "proof_signature", reason: "bad_signature" },
      });
    }
    expect(
      errorOf(await acme.call("partnerservice.register_signing_key", { ...wrongKey, proof_signature: "00" })),
    ).toMatchObject({ data: { variant: "InvalidInput", field: "proof_signature" } });
    expect(await keyRows()).toBe(0);
  });

  test("a partner that has a key must rotate it (InvalidState)", async () => {
    const k = signingKey();
    await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k));
    const r = await acme.call("partnerservice.register_signing_key", registration(acme.partnerId, 2, signingKey()));
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await currentKey(acme)).toBe(k.publicHex);
  });
});

describe("rotate_signing_key", () => {
  let k1: ReturnType<typeof signingKey>;
  beforeEach(async () => {
    k1 = signingKey();
    await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k1));
  });

  test("retires the old key at once: requests signed with it are refused, with the new one accepted", async () => {
    const k2 = signingKey();
    t.clock.advance(5);
    const r = await acme.callOk("partnerservice.rotate_signing_key", rotation(acme.partnerId, 2, k2, k1));
    expect(r.items.map((i) => [i.version, i.is_current, i.valid_to])).toEqual([
      [2, true, null],
      [1, false, t.clock.now().toISOString()],
    ]);
    const client = { client_email: "c@example.org", client_name: "Client" };
    const old = await acme.call(
      "registrationrequestservice.submit_registration_request",
      signedRequest(acme.partnerId, k1, client),
    );
    expect(errorOf(old)).toMatchObject({
      code: -32006,
      data: { variant: "InvalidSignature", reason: "bad_signature" },
    });
    const fresh = await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedRequest(acme.partnerId, k2, client),
    );
    expect(fresh.status).toBe("pending");
  });

  test("rotating to the current key is InvalidInput (current_key); to a retired one too (retired_key)", async () => {
    const same = await acme.call("partnerservice.rotate_signing_key", rotation(acme.partnerId, 2, k1, k1));
    expect(errorOf(same)).toMatchObject({ code: -32006, data: { variant: "InvalidInput", reason: "current_key" } });
    const k2 = signingKey();
    await acme.callOk("partnerservice.rotate_signing_key", rotation(acme.partnerId, 2, k2, k1));
    const back = await acme.call("partnerservice.rotate_signing_key", rotation(acme.partnerId, 3, k1, k2));
    expect(errorOf(back)).toMatchObject({ data: { variant: "InvalidInput", reason: "retired_key", version: 1 } });
    expect(await keyRows()).toBe(2);
    expect(await currentKey(acme)).toBe(k2.publicHex);
  });

  test("without the current key's consent (a leaked reseller key alone) the key stays; the denial is audited", async () => {
    const k2 = signingKey();
    const thief = signingKey();
    const r = await acme.call("partnerservice.rotate_signing_key", rotation(acme.partnerId, 2, k2, thief));
    expect(errorOf(r)).toMatchObject({
      code: -32006,
      data: { variant: "InvalidSignature", field: "current_key_signature" },
    });
    expect(await currentKey(acme)).toBe(k1.publicHex);
    expect(await keyRows()).toBe(1);
    expect(await deniedRows("rotate_signing_key")).toBe(1);
  });

  test("a partner without a key cannot rotate (InvalidState)", async () => {
    const globex = await newPartner();
    const r = await globex.call("partnerservice.rotate_signing_key", rotation(globex.partnerId, 1, signingKey(), k1));
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });
});

describe("retire_signing_key (administrators)", () => {
  test("retires the current key with an AdminAction; the partner registers a new one (version 2), never the old", async () => {
    const k1 = signingKey();
    await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k1));
    const r = await admin.callOk("partnerservice.retire_signing_key", { partner_id: acme.partnerId, reason: "leaked" });
    expect(r).toMatchObject({ signing_public_key: null, current_version: null });
    expect(r.items[0]).toMatchObject({ version: 1, is_current: false });
    expect(await count(t, "admin_action", "action = 'retire_partner_signing_key'")).toBe(1);
    const refused = await acme.call(
      "registrationrequestservice.submit_registration_request",
      signedRequest(acme.partnerId, k1, { client_email: "c@example.org", client_name: "Client" }),
    );
    expect(errorOf(refused)).toMatchObject({ data: { variant: "InvalidSignature", reason: "no_signing_key" } });
    const again = await acme.call("partnerservice.register_signing_key", registration(acme.partnerId, 2, k1));
    expect(errorOf(again)).toMatchObject({ data: { variant: "InvalidInput", reason: "retired_key" } });
    const k2 = signingKey();
    expect(
      (await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 2, k2))).current_version,
    ).toBe(2);
  });

  test("a partner key cannot retire; a partner without a key is InvalidState; a blank reason InvalidInput", async () => {
    expect(
      errorOf(await acme.call("partnerservice.retire_signing_key", { partner_id: acme.partnerId, reason: "x" })).code,
    ).toBe(-32002);
    expect(
      errorOf(await admin.call("partnerservice.retire_signing_key", { partner_id: acme.partnerId, reason: "x" })),
    ).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const k = signingKey();
    await acme.callOk("partnerservice.register_signing_key", registration(acme.partnerId, 1, k));
    expect(
      errorOf(await admin.call("partnerservice.retire_signing_key", { partner_id: acme.partnerId, reason: "  " })),
    ).toMatchObject({ data: { variant: "InvalidInput" } });
    expect(await currentKey(acme)).toBe(k.publicHex);
  });
});
