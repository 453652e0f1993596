import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import {
  documentHash,
  insertCompany,
  insertProxy,
  insertRole,
  malleableTwin,
  member,
  newKeypair,
  signingRows,
  startSigningApp,
  type TestKeypair,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;

beforeAll(async () => {
  t = await startSigningApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

/** A new member whose resident holds a fresh key. */
async function residentWithKey(): Promise<{ client: Client; resident: string; kp: TestKeypair }> {
  const { client, resident } = await member(t);
  const kp = newKeypair();
  await storeKey(client, resident, kp);
  return { client, resident, kp };
}

async function storeKey(
  client: Client,
  resident: string,
  kp: TestKeypair,
  entity_type: "resident" | "company" = "resident",
) {
  await client.callOk("keypairservice.store_client_keypair", {
    entity_type,
    entity_id: resident,
    public_key: kp.publicKey,
    encrypted_private_key: kp.encrypted,
  });
}

const submit = (client: Client, resident: string, document_hash: string, signature: string) =>
  client.call("documentservice.submit_signed", {
    entity_type: "resident",
    entity_id: resident,
    document_type: "contract",
    document_hash,
    signature,
  });

describe("documentservice.submit_signed", () => {
  test("records a verified signature with a non-guessable receipt naming the key version", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("lease agreement v3");
    const r = await submit(ada, resident, hash, kp.sign(hash));
    if (!("result" in r)) throw new Error(JSON.stringify(r));
    expect(r.result).toMatchObject({
      entity_type: "resident",
      entity_id: resident,
      document_type: "contract",
      document_hash: hash,
      public_key: kp.publicKey,
      key_version: 1,
      signed_at: t.clock.now().toISOString(),
    });
    expect(r.result.receipt_id).toMatch(/^fzrc_[A-Za-z0-9_-]{43}$/);
    const rows = await sql(t, `select receipt_id, user_id, key_version::int as v from "document_signature"`);
    expect(rows).toContainEqual({ receipt_id: r.result.receipt_id, user_id: ada.userId, v: 1 });
  });

  test("submitting the same signature again answers the first receipt and records nothing more", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("invoice 42");
    const sig = kp.sign(hash);
    const first = await submit(ada, resident, hash, sig);
    t.clock.advance(30);
    const again = await submit(ada, resident, hash, sig);
    expect(again).toEqual(first);
    expect(await count(t, "document_signature", "entity_id = ?", [resident])).toBe(1);
  });

  test("a signature that does not verify with the current key is InvalidSignature; nothing is recorded", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("memorandum");
    const before = await signingRows(t);
    for (const signature of [kp.sign(documentHash("another")), newKeypair().sign(hash)]) {
      expect(errorOf(await submit(ada, resident, hash, signature))).toMatchObject({
        code: -32006,
        data: { type: "SignError", variant: "InvalidSignature", key_version: 1 },
      });
    }
    expect(await signingRows(t)).toEqual(before);
  });

  test("after a key rotation the old key no longer signs", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    await storeKey(ada, resident, newKeypair());
    const hash = documentHash("after rotation");
    expect(errorOf(await submit(ada, resident, hash, kp.sign(hash)))).toMatchObject({
      data: { variant: "InvalidSignature", key_version: 2 },
    });
  });

  test("malformed and non-canonical signatures or hashes are InvalidInput; nothing is recorded", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("x");
    const sig = kp.sign(hash);
    const before = await signingRows(t);
    const cases: [string, string][] = [
      [malleableTwin(sig), hash],
      [sig.slice(0, 120), hash],
      [`${sig.slice(2)}gg`, hash],
      [sig, hash.slice(0, 40)],
      [sig, `${hash.slice(2)}GG`],
    ];
    for (const [signature, documentHashParam] of cases) {
      expect(errorOf(await submit(ada, resident, documentHashParam, signature))).toMatchObject({
        code: -32006,
        data: { type: "SignError", variant: "InvalidInput" },
      });
    }
    expect(await signingRows(t)).toEqual(before);
  });

  test("a resident signs only while active: pending, lapsed and suspended residents are InvalidState", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["pending", { status: "pending" }, "pending"],
      [
        "lapsed (active, end passed, not swept yet)",
        { subscription_end_date: new Date("2026-11-23T09:59:59.999Z") },
        "expired",
      ],
      ["suspended", {}, "suspended"],
    ];
    const admin = await t.admin();
    for (const [name, extra, status] of cases) {
      const { client, resident } = await member(t, extra);
      const kp = newKeypair();
      // Storing a keypair is a registration step: a pending or lapsed resident may; a suspended one not, so the
      // suspension comes after it (an administrator's residentservice.suspend).
      await storeKey(client, resident, kp);
      if (status === "suspended") {
        await admin.callOk("residentservice.suspend", { resident_id: resident, reason: "test" });
      }
      const hash = documentHash(name);
      const before = await signingRows(t);
      expect(errorOf(await submit(client, resident, hash, kp.sign(hash))), name).toMatchObject({
        code: -32005,
        data: { type: "SignError", variant: "InvalidState", status },
      });
      expect(await signingRows(t)).toEqual(before);
    }
  });

  test("an entity without a key is KeypairError NotFound", async () => {
    const { client: ada, resident } = await member(t);
    const hash = documentHash("y");
    expect(errorOf(await submit(ada, resident, hash, newKeypair().sign(hash)))).toMatchObject({
      code: -32003,
      data: { type: "KeypairError", variant: "NotFound" },
    });
  });

  test("a proxy may not sign for the resident (NotOwner), a stranger does not see it (NotFound)", async () => {
    const { resident, kp } = await residentWithKey();
    const proxy = await member(t);
    await insertProxy(t, proxy.resident, resident);
    const carol = await t.register("carol@example.org");
    const hash = documentHash("z");
    const before = await signingRows(t);
    expect(errorOf(await submit(proxy.client, resident, hash, kp.sign(hash)))).toMatchObject({
      code: -32002,
      data: { type: "SignError", variant: "NotOwner" },
    });
    expect(errorOf(await submit(carol, resident, hash, kp.sign(hash)))).toMatchObject({
      code: -32003,
      data: { type: "SignError", variant: "NotFound" },
    });
    expect(await signingRows(t)).toEqual(before);
  });

  test("a company director signs for the company; a shareholder may not", async () => {
    const company = await insertCompany(t, ada.userId);
    const kp = newKeypair();
    await storeKey(ada, company, kp, "company");
    const director = await member(t);
    await insertRole(t, company, director.resident, "director");
    const shareholder = await member(t);
    await insertRole(t, company, shareholder.resident, "shareholder");
    const hash = documentHash("board resolution");
    const params = {
      entity_type: "company" as const,
      entity_id: company,
      document_type: "certificate" as const,
      document_hash: hash,
      signature: kp.sign(hash),
    };
    expect(await director.client.callOk("documentservice.submit_signed", params)).toMatchObject({
      entity_type: "company",
    });
    expect(errorOf(await shareholder.client.call("documentservice.submit_signed", params))).toMatchObject({
      code: -32002,
      data: { variant: "NotOwner" },
    });
  });

  test("concurrent submissions of one signature record it once and answer one receipt", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("raced");
    const sig = kp.sign(hash);
    const replies = await Promise.all(Array.from({ length: 8 }, () => submit(ada, resident, hash, sig)));
    const receipts = new Set(replies.map((r) => ("result" in r ? r.result.receipt_id : JSON.stringify(r))));
    expect(receipts.size).toBe(1);
    expect(await count(t, "document_signature", "entity_id = ?", [resident])).toBe(1);
  });

  test("generic CRUD shows a recorded signature to its submitter only, and never writes one", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("crud view");
    const r = await submit(ada, resident, hash, kp.sign(hash));
    if (!("result" in r)) throw new Error(JSON.stringify(r));
    const sid = r.result.signature_id;
    expect((await ada.rpc("documentsignature.get", { sid })).result).toMatchObject({ receipt_id: r.result.receipt_id });
    expect((await bob.rpc("documentsignature.get", { sid })).error).toMatchObject({ code: -32003 });
    // Every field is server-managed: set refuses them (-32602), and an append-only record has no delete.
    const before = await count(t, "document_signature");
    const set = await ada.rpc("documentsignature.set", { data: JSON.stringify({ document_hash: hash }) });
    expect(set.error?.code).toBe(-32602);
    expect(await count(t, "document_signature")).toBe(before);
    expect((await ada.rpc("documentsignature.delete", { sid })).error?.code).toBe(-32601);
  });

  test("a recorded signature cannot be changed or deleted, even in the database", async () => {
    const { client: ada, resident, kp } = await residentWithKey();
    const hash = documentHash("immutable");
    await submit(ada, resident, hash, kp.sign(hash));
    await expect(
      sql(t, `update "document_signature" set document_hash = 'x' where entity_id = ?`, [resident]),
    ).rejects.toThrow(/append-only/);
    await expect(sql(t, `delete from "document_signature" where entity_id = ?`, [resident])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe("documentservice.verify", () => {
  test("tries the current key, then the history, and names the version that matched", async () => {
    const { client: ada, resident, kp: v1 } = await residentWithKey();
    const oldHash = documentHash("signed under v1");
    const oldSig = v1.sign(oldHash);
    await submit(ada, resident, oldHash, oldSig);
    const recordedAt = t.clock.now().toISOString();
    t.clock.advance(600);
    const v2 = newKeypair();
    await storeKey(ada, resident, v2);
    const newHash = documentHash("signed under v2");
    const verify = (signature: string, document_hash: string) =>
      bob.callOk("documentservice.verify", { signature, document_hash, signer_id: resident, signer_type: "resident" });

    expect(await verify(v2.sign(newHash), newHash)).toMatchObject({
      valid: true,
      public_key: v2.publicKey,
      key_version: 2,
      key_is_current: true,
      signed_at: null,
      reason: null,
    });
    expect(await verify(oldSig, oldHash)).toMatchObject({
      valid: true,
      public_key: v1.publicKey,
      key_version: 1,
      key_is_current: false,
      signed_at: recordedAt,
    });
    expect(await verify(newKeypair().sign(newHash), newHash)).toMatchObject({
      valid: false,
      reason: "bad_signature",
      public_key: null,
      key_version: null,
      key_is_current: null,
    });
    // keypairservice.verify_signature knows only the current key.
    expect(
      await bob.callOk("keypairservice.verify_signature", {
        signature: oldSig,
        document_hash: oldHash,
        signer_id: resident,
        signer_type: "resident",
      }),
    ).toMatchObject({ valid: false, reason: "bad_signature", key_version: 2 });
  });

  test("a signer that never had a key: valid false, no_key; an unknown signer: NotFound", async () => {
    const { resident } = await member(t);
    const hash = documentHash("n");
    const sig = newKeypair().sign(hash);
    expect(
      await bob.callOk("documentservice.verify", {
        signature: sig,
        document_hash: hash,
        signer_id: resident,
        signer_type: "resident",
      }),
    ).toMatchObject({ valid: false, reason: "no_key" });
    const r = await bob.call("documentservice.verify", {
      signature: sig,
      document_hash: hash,
      signer_id: "FZ-2026-Y999999",
      signer_type: "company",
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "VerifyError", variant: "NotFound" } });
  });

  test("a non-canonical signature is InvalidInput", async () => {
    const { resident, kp } = await residentWithKey();
    const hash = documentHash("m");
    const r = await bob.call("documentservice.verify", {
      signature: malleableTwin(kp.sign(hash)),
      document_hash: hash,
      signer_id: resident,
      signer_type: "resident",
    });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "VerifyError", variant: "InvalidInput" } });
  });
});

describe("documentservice.get_key_status", () => {
  test("reports the caller's own resident's key", async () => {
    const { client: carol, resident } = await member(t);
    expect(await carol.callOk("documentservice.get_key_status", {})).toEqual({
      entity_type: "resident",
      entity_id: resident,
      has_keypair: false,
      public_key: null,
      keypair_version: 0,
      has_encrypted_private_key: false,
    });
    const kp = newKeypair();
    await storeKey(carol, resident, kp);
    expect(await carol.callOk("documentservice.get_key_status", {})).toMatchObject({
      has_keypair: true,
      public_key: kp.publicKey,
      keypair_version: 1,
      has_encrypted_private_key: true,
    });
  });

  test("NotFound without a resident; another user's id is refused by caller binding", async () => {
    const dave = await t.register("dave-status@example.org");
    expect(errorOf(await dave.call("documentservice.get_key_status", {}))).toMatchObject({
      code: -32003,
      data: { type: "KeypairError", variant: "NotFound" },
    });
    expect(errorOf(await dave.call("documentservice.get_key_status", { user_id: ada.userId }))).toMatchObject({
      code: -32002,
    });
  });

  test("a resident of a partner is not the caller's own", async () => {
    const erin = await t.register("erin@example.org");
    await insertRow(t.app.runtime.orm, "DigitalResident", {
      resident_id: "FZ-2026-RA900001",
      user_id: erin.userId,
      partner_id: "partner-x",
      email: "p@example.org",
      first_name: "P",
      last_name: "Q",
    });
    expect(errorOf(await erin.call("documentservice.get_key_status", {}))).toMatchObject({ code: -32003 });
  });
});
