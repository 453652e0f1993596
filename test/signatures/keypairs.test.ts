import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";
import {
  documentHash,
  insertCompany,
  insertProxy,
  insertResident,
  insertRole,
  malleableTwin,
  member,
  newKeypair,
  SMALL_ORDER_KEY,
  signingRows,
  startSigningApp,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;

beforeAll(async () => {
  t = await startSigningApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

async function residentKeys(residentId: string) {
  const [row] = await sql(
    t,
    `select public_key, encrypted_private_key, keypair_version::int as keypair_version from "digital_resident" where resident_id = ?`,
    [residentId],
  );
  return row;
}

describe("keypairservice.store_client_keypair", () => {
  test("the owner stores a keypair: version 1, the key appended to the history, the blob kept verbatim", async () => {
    const { client: ada, resident } = await member(t);
    const kp = newKeypair();
    const r = await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    expect(r).toEqual({
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      keypair_version: 1,
      replaced: false,
      stored_at: t.clock.now().toISOString(),
    });
    expect(await residentKeys(resident)).toEqual({
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
      keypair_version: 1,
    });
    const history = await sql(
      t,
      `select version::int as version, public_key, valid_to from "public_key_history" where entity_id = ?`,
      [resident],
    );
    expect(history).toEqual([{ version: 1, public_key: kp.publicKey, valid_to: null }]);
  });

  test("replacing the key bumps keypair_version, closes the old history entry and appends the new one", async () => {
    const { client: ada, resident } = await member(t);
    const first = newKeypair();
    const second = newKeypair();
    const store = (kp: ReturnType<typeof newKeypair>) =>
      ada.callOk("keypairservice.store_client_keypair", {
        entity_type: "resident",
        entity_id: resident,
        public_key: kp.publicKey,
        encrypted_private_key: kp.encrypted,
      });
    await store(first);
    t.clock.advance(60);
    const r = await store(second);
    expect(r).toMatchObject({ keypair_version: 2, replaced: true, public_key: second.publicKey });
    const history = await sql(
      t,
      `select version::int as version, public_key, valid_from, valid_to from "public_key_history" where entity_id = ? order by version`,
      [resident],
    );
    expect(history.map((h) => [h.version, h.public_key, h.valid_to === null])).toEqual([
      [1, first.publicKey, false],
      [2, second.publicKey, true],
    ]);
    expect(new Date(history[0].valid_to).toISOString()).toBe(t.clock.now().toISOString());
    expect(new Date(history[1].valid_from).toISOString()).toBe(t.clock.now().toISOString());
    expect((await residentKeys(resident))?.keypair_version).toBe(2);
  });

  test("a key stored before the history existed is kept in it when replaced", async () => {
    const legacy = newKeypair();
    const { client: ada, resident } = await member(t, {
      public_key: legacy.publicKey,
      encrypted_private_key: legacy.encrypted,
      keypair_version: 1,
    });
    const next = newKeypair();
    await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: next.publicKey,
      encrypted_private_key: next.encrypted,
    });
    const history = await ada.callOk("publickeyhistoryservice.get_history", {
      entity_type: "resident",
      entity_id: resident,
    });
    expect(history.items.map((k) => [k.version, k.public_key, k.is_current])).toEqual([
      [2, next.publicKey, true],
      [1, legacy.publicKey, false],
    ]);
  });

  test("a proxy, an administrator and a stranger may not store a resident's key; nothing changes", async () => {
    const { client: ada, resident: target } = await member(t);
    const { client: bob, resident: bobs } = await member(t);
    await insertProxy(t, bobs, target);
    const admin = await t.admin();
    const kp = newKeypair();
    const params = {
      entity_type: "resident" as const,
      entity_id: target,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    };
    const before = await signingRows(t);
    expect(errorOf(await bob.call("keypairservice.store_client_keypair", params))).toMatchObject({
      code: -32002,
      data: { type: "KeypairError", variant: "NotOwner" },
    });
    expect(errorOf(await admin.call("keypairservice.store_client_keypair", params))).toMatchObject({
      code: -32002,
      data: { type: "KeypairError", variant: "NotOwner" },
    });
    const carol = await t.register("carol@example.org");
    expect(errorOf(await carol.call("keypairservice.store_client_keypair", params))).toMatchObject({
      code: -32003,
      data: { type: "KeypairError", variant: "NotFound" },
    });
    expect(
      errorOf(await ada.call("keypairservice.store_client_keypair", { ...params, entity_id: "FZ-2026-RA999999" })),
    ).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await signingRows(t)).toEqual(before);
    expect((await residentKeys(target))?.keypair_version).toBe(0);
  });

  test("a partner's reseller key manages its partner-onboarded residents (no user id), never another partner's", async () => {
    const admin = await t.admin();
    const partner = async (name: string) => {
      const p = await admin.callOk("partnerservice.create_partner", { name });
      const key = await t.callOk("apikeyservice.generate", {
        client_id: p.client_id,
        client_secret: p.client_secret,
        access_password: p.access_password,
      });
      return { partnerId: p.partner_id, key: key.api_key };
    };
    const acme = await partner("Acme Residency");
    const other = await partner("Other Residency");
    const onboarded = await insertResident(t, null, { partner_id: acme.partnerId });
    const store = (apiKey: string | null, client: Client | null) => {
      const kp = newKeypair();
      const params = {
        entity_type: "resident",
        entity_id: onboarded,
        public_key: kp.publicKey,
        encrypted_private_key: kp.encrypted,
      };
      return client
        ? client.rpc("keypairservice.store_client_keypair", params)
        : t.rpc("keypairservice.store_client_keypair", params, { "x-api-key": apiKey ?? "" });
    };
    expect((await store(acme.key, null)).result).toMatchObject({ keypair_version: 1 });
    expect((await store(other.key, null)).error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    // A personal caller (partner_id null) never owns a partner's resident.
    expect((await store(null, ada)).error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await residentKeys(onboarded))?.keypair_version).toBe(1);
  });

  test("a company's owner, founder and director store its key; a plain member may not; a stranger sees nothing", async () => {
    const company = await insertCompany(t, ada.userId);
    const { client: bob, resident: bobs } = await member(t);
    const { client: carol, resident: carols } = await member(t);
    await insertRole(t, company, bobs, "director");
    await insertRole(t, company, carols, "shareholder");
    const dave = await t.register("dave@example.org");
    const store = (client: Client) => {
      const kp = newKeypair();
      return client.call("keypairservice.store_client_keypair", {
        entity_type: "company",
        entity_id: company,
        public_key: kp.publicKey,
        encrypted_private_key: kp.encrypted,
      });
    };
    expect(await store(ada)).toMatchObject({ result: { keypair_version: 1 } });
    expect(await store(bob)).toMatchObject({ result: { keypair_version: 2, replaced: true } });
    expect(errorOf(await store(carol))).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect(errorOf(await store(dave))).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const [row] = await sql(t, `select keypair_version::int as v from "zone_company" where company_id = ?`, [company]);
    expect(row.v).toBe(2);
  });

  describe("malformed public keys are refused with InvalidInput and change nothing", () => {
    const good = newKeypair();
    const cases: [string, string][] = [
      ["too short", good.publicKey.slice(2)],
      ["too long", `${good.publicKey}00`],
      ["not hex", `${good.publicKey.slice(2)}zz`],
      ["upper case", good.publicKey.toUpperCase()],
      ["empty", ""],
      ["small order (order 8)", SMALL_ORDER_KEY],
      ["small order (identity)", `01${"00".repeat(31)}`],
      ["non-canonical encoding (y = p)", `ed${"ff".repeat(30)}7f`],
    ];
    test.each(cases)("%s", async (_name, publicKey) => {
      const { client: ada, resident } = await member(t);
      const before = await signingRows(t);
      const r = await ada.call("keypairservice.store_client_keypair", {
        entity_type: "resident",
        entity_id: resident,
        public_key: publicKey,
        encrypted_private_key: good.encrypted,
      });
      expect(errorOf(r)).toMatchObject({
        code: -32006,
        data: { type: "KeypairError", variant: "InvalidInput", field: "public_key" },
      });
      expect(await signingRows(t)).toEqual(before);
      expect(await residentKeys(resident)).toEqual({
        public_key: null,
        encrypted_private_key: null,
        keypair_version: 0,
      });
    });
  });

  describe("encrypted private keys that are not an opaque ciphertext are refused", () => {
    const kp = newKeypair();
    const seedHex = Buffer.from(kp.secret).toString("hex");
    const nonce = "ab".repeat(12);
    const cases: [string, string][] = [
      ["the private key in plain", seedHex],
      ["seed||public key in plain", `${seedHex}${kp.publicKey}`],
      ["the seed as ciphertext", `${nonce}:${seedHex}${"00".repeat(16)}`],
      ["the seed as nonce", `${seedHex}:${"cd".repeat(48)}`],
      ["no colon", "ab".repeat(60)],
      ["a nonce of 11 bytes", `${"ab".repeat(11)}:${"cd".repeat(48)}`],
      ["a nonce of 33 bytes", `${"ab".repeat(33)}:${"cd".repeat(48)}`],
      ["a ciphertext of 47 bytes", `${nonce}:${"cd".repeat(47)}`],
      ["odd hex", `${nonce}:${"cd".repeat(48)}c`],
      ["over 4 KiB", `${nonce}:${"cd".repeat(2036)}`],
    ];
    test.each(cases)("%s", async (_name, blob) => {
      const { client: ada, resident } = await member(t);
      const r = await ada.call("keypairservice.store_client_keypair", {
        entity_type: "resident",
        entity_id: resident,
        public_key: kp.publicKey,
        encrypted_private_key: blob,
      });
      expect(errorOf(r)).toMatchObject({
        code: -32006,
        data: { variant: "InvalidInput", field: "encrypted_private_key" },
      });
      expect((await residentKeys(resident))?.keypair_version).toBe(0);
    });

    test("the longest blob (4,095 characters), a 32-byte nonce and upper-case hex are accepted verbatim", async () => {
      const longest = `${"ab".repeat(12)}:${"cd".repeat((4096 - 26) / 2)}`;
      expect(longest.length).toBe(4095);
      for (const ok of [longest, `${"ab".repeat(32)}:${"cd".repeat(48)}`, `${"AB".repeat(12)}:${"CD".repeat(48)}`]) {
        const { client: ada, resident } = await member(t);
        await ada.callOk("keypairservice.store_client_keypair", {
          entity_type: "resident",
          entity_id: resident,
          public_key: kp.publicKey,
          encrypted_private_key: ok,
        });
        expect((await residentKeys(resident))?.encrypted_private_key).toBe(ok);
      }
    });
  });
});

describe("keypairservice.get_encrypted_private_key", () => {
  test("the owner gets the blob verbatim; proxies, administrators and strangers get NotFound", async () => {
    const { client: ada, resident } = await member(t);
    const kp = newKeypair();
    await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    const params = { entity_type: "resident" as const, entity_id: resident };
    expect(await ada.callOk("keypairservice.get_encrypted_private_key", params)).toEqual({
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
      keypair_version: 1,
    });
    const proxy = await member(t);
    await insertProxy(t, proxy.resident, resident);
    const admin = await t.admin();
    for (const other of [proxy.client, admin]) {
      expect(errorOf(await other.call("keypairservice.get_encrypted_private_key", params))).toMatchObject({
        code: -32003,
        data: { type: "KeypairError", variant: "NotFound" },
      });
    }
  });

  test("NotFound when no keypair is stored", async () => {
    const { client: ada, resident } = await member(t);
    const r = await ada.call("keypairservice.get_encrypted_private_key", {
      entity_type: "resident",
      entity_id: resident,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });

  test("generic CRUD never returns the encrypted private key", async () => {
    const { client: ada, resident } = await member(t);
    const kp = newKeypair();
    await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    const [row] = await sql(t, `select sid from "digital_resident" where resident_id = ?`, [resident]);
    const r = await ada.rpc("digitalresident.get", { sid: row.sid });
    expect(r.result.public_key).toBe(kp.publicKey);
    expect(JSON.stringify(r.body)).not.toContain(kp.encrypted);
  });
});

describe("keypairservice.verify_signature", () => {
  let resident: string;
  const kp = newKeypair();
  const hash = documentHash("the articles of association");

  beforeAll(async () => {
    const owner = await member(t);
    resident = owner.resident;
    await owner.client.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
  });

  const verify = (client: Client, signature: string, document_hash = hash, signer_id = resident) =>
    client.call("keypairservice.verify_signature", { signature, document_hash, signer_id, signer_type: "resident" });

  test("any signed-in caller verifies a signature with the signer's current key", async () => {
    const r = await verify(bob, kp.sign(hash));
    expect(r).toEqual({
      result: {
        valid: true,
        signer_type: "resident",
        signer_id: resident,
        document_hash: hash,
        public_key: kp.publicKey,
        key_version: 1,
        key_is_current: true,
        signed_at: null,
        reason: null,
        verified_at: t.clock.now().toISOString(),
      },
    });
  });

  test("a signature over another hash, or by another key, is valid false (bad_signature), not an error", async () => {
    const other = newKeypair();
    for (const signature of [kp.sign(documentHash("something else")), other.sign(hash)]) {
      expect(await verify(bob, signature)).toMatchObject({
        result: { valid: false, reason: "bad_signature", key_version: 1 },
      });
    }
  });

  test("a signer without a key: valid false, no_key", async () => {
    const { client: bob, resident: keyless } = await member(t);
    expect(await verify(bob, kp.sign(hash), hash, keyless)).toMatchObject({
      result: { valid: false, reason: "no_key", public_key: null, key_version: null },
    });
  });

  test("an unknown signer is NotFound", async () => {
    expect(errorOf(await verify(bob, kp.sign(hash), hash, "FZ-2026-RA999999"))).toMatchObject({
      code: -32003,
      data: { type: "VerifyError", variant: "NotFound" },
    });
  });

  test("malformed and non-canonical inputs are InvalidInput, never -32603", async () => {
    const sig = kp.sign(hash);
    const cases: [string, string][] = [
      [sig.slice(2), hash],
      [`${sig}00`, hash],
      [`${sig.slice(2)}zz`, hash],
      [sig.toUpperCase(), hash],
      [malleableTwin(sig), hash],
      [`${sig.slice(0, 64)}${"ff".repeat(32)}`, hash],
      [sig, hash.slice(2)],
      [sig, hash.toUpperCase()],
      [sig, `${hash.slice(2)}xx`],
    ];
    for (const [signature, document_hash] of cases) {
      expect(errorOf(await verify(bob, signature, document_hash))).toMatchObject({
        code: -32006,
        data: { type: "VerifyError", variant: "InvalidInput" },
      });
    }
  });

  test("anonymous callers are refused", async () => {
    const r = await t.call("keypairservice.verify_signature", {
      signature: kp.sign(hash),
      document_hash: hash,
      signer_id: resident,
      signer_type: "resident",
    });
    expect(errorOf(r).code).toBe(-32001);
  });
});
