import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import {
  documentHash,
  insertCompany,
  insertProxy,
  insertRole,
  malleableTwin,
  member,
  newKeypair,
  startSigningApp,
  type TestKeypair,
} from "./support.ts";

let t: TestApp;
let bob: Client;

beforeAll(async () => {
  t = await startSigningApp();
  bob = await t.register("bob@example.org");
});

async function store(client: Client, entity_type: "resident" | "company", entity_id: string, kp: TestKeypair) {
  return client.callOk("keypairservice.store_client_keypair", {
    entity_type,
    entity_id,
    public_key: kp.publicKey,
    encrypted_private_key: kp.encrypted,
  });
}

describe("publickeyhistoryservice.get_history and get_by_version", () => {
  test("every key the resident held, newest first, with validity windows; never a private key", async () => {
    const { client: ada, resident } = await member(t);
    const keys = [newKeypair(), newKeypair(), newKeypair()];
    const times: string[] = [];
    for (const kp of keys) {
      times.push(t.clock.now().toISOString());
      await store(ada, "resident", resident, kp);
      t.clock.advance(120);
    }
    const h = await ada.callOk("publickeyhistoryservice.get_history", { entity_type: "resident", entity_id: resident });
    expect(h).toEqual({
      entity_type: "resident",
      entity_id: resident,
      current_version: 3,
      items: [
        { version: 3, public_key: keys[2]?.publicKey, valid_from: times[2], valid_to: null, is_current: true },
        { version: 2, public_key: keys[1]?.publicKey, valid_from: times[1], valid_to: times[2], is_current: false },
        { version: 1, public_key: keys[0]?.publicKey, valid_from: times[0], valid_to: times[1], is_current: false },
      ],
    });
    expect(JSON.stringify(h)).not.toContain(keys[0]?.encrypted);
    const v2 = await ada.callOk("publickeyhistoryservice.get_by_version", {
      entity_type: "resident",
      entity_id: resident,
      version: 2,
    });
    expect(v2).toMatchObject({ version: 2, public_key: keys[1]?.publicKey, valid_from: times[1], valid_to: times[2] });
    expect(v2.sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("an entity without keys has an empty history at version 0; an unknown version is NotFound", async () => {
    const { client: ada, resident } = await member(t);
    expect(
      await ada.callOk("publickeyhistoryservice.get_history", { entity_type: "resident", entity_id: resident }),
    ).toEqual({ entity_type: "resident", entity_id: resident, current_version: 0, items: [] });
    for (const version of [0, 1, -1]) {
      const r = await ada.call("publickeyhistoryservice.get_by_version", {
        entity_type: "resident",
        entity_id: resident,
        version,
      });
      expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "KeypairError", variant: "NotFound" } });
    }
  });

  test("readable by the owner, a proxy, company members and administrators; NotFound for anyone else", async () => {
    const { client: ada, resident } = await member(t);
    await store(ada, "resident", resident, newKeypair());
    const company = await insertCompany(t, ada.userId);
    await store(ada, "company", company, newKeypair());
    const { client: bob, resident: bobs } = await member(t);
    await insertProxy(t, bobs, resident);
    await insertRole(t, company, bobs, "shareholder");
    const admin = await t.admin();
    const carol = await t.register("carol@example.org");
    for (const reader of [ada, bob, admin]) {
      for (const [entity_type, entity_id] of [
        ["resident", resident],
        ["company", company],
      ] as const) {
        const h = await reader.callOk("publickeyhistoryservice.get_history", { entity_type, entity_id });
        expect(h.items).toHaveLength(1);
      }
    }
    for (const [entity_type, entity_id] of [
      ["resident", resident],
      ["company", company],
    ] as const) {
      expect(
        errorOf(await carol.call("publickeyhistoryservice.get_history", { entity_type, entity_id })),
      ).toMatchObject({
        code: -32003,
      });
      expect(
        errorOf(await carol.call("publickeyhistoryservice.get_by_version", { entity_type, entity_id, version: 1 })),
      ).toMatchObject({ code: -32003 });
    }
  });

  test("concurrent stores on one resident get distinct versions and leave one open history entry", async () => {
    const { client: ada, resident } = await member(t);
    const replies = await Promise.all(Array.from({ length: 6 }, () => store(ada, "resident", resident, newKeypair())));
    expect(replies.map((r) => r.keypair_version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const rows = await sql(
      t,
      `select version::int as version, valid_to from "public_key_history" where entity_id = ? order by version`,
      [resident],
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.filter((r) => r.valid_to === null).map((r) => r.version)).toEqual([6]);
  });

  test("the database refuses rewriting or deleting history; only closing valid_to once", async () => {
    const { client: ada, resident } = await member(t);
    await store(ada, "resident", resident, newKeypair());
    await store(ada, "resident", resident, newKeypair());
    const closed = `entity_id = '${resident}' and version = 1`;
    await expect(sql(t, `update "public_key_history" set public_key = 'aa' where ${closed}`)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(t, `update "public_key_history" set valid_to = now() where ${closed}`)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(t, `delete from "public_key_history" where entity_id = ?`, [resident])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe("publickeyhistoryservice.verify_with_history", () => {
  test("a signature recorded under an earlier key verifies with that key after rotation", async () => {
    const { client: ada, resident } = await member(t);
    const v1 = newKeypair();
    await store(ada, "resident", resident, v1);
    const hash = documentHash("signed in January");
    const sig = v1.sign(hash);
    await ada.callOk("documentservice.submit_signed", {
      entity_type: "resident",
      entity_id: resident,
      document_type: "agreement",
      document_hash: hash,
      signature: sig,
    });
    const signedAt = t.clock.now().toISOString();
    t.clock.advance(600);
    await store(ada, "resident", resident, newKeypair());
    const r = await bob.callOk("publickeyhistoryservice.verify_with_history", {
      signature: sig,
      entity_type: "resident",
      entity_id: resident,
    });
    expect(r).toEqual({
      valid: true,
      signer_type: "resident",
      signer_id: resident,
      document_hash: hash,
      public_key: v1.publicKey,
      key_version: 1,
      key_is_current: false,
      signed_at: signedAt,
      reason: null,
      verified_at: t.clock.now().toISOString(),
    });
  });

  test("a recorded key that differs from the history's key of its version is key_mismatch", async () => {
    const { client: ada, resident } = await member(t);
    const real = newKeypair();
    await store(ada, "resident", resident, real);
    const forged = newKeypair();
    const hash = documentHash("planted");
    const sig = forged.sign(hash);
    // A row that did not come through submit_signed: it claims version 1 but carries another key.
    await insertRow(t.app.runtime.orm, "DocumentSignature", {
      user_id: ada.userId,
      partner_id: null,
      entity_type: "resident",
      entity_id: resident,
      document_type: "other",
      document_hash: hash,
      signature: sig,
      public_key: forged.publicKey,
      key_version: 1,
      receipt_id: "fzrc_planted",
      signed_at: t.clock.now(),
    });
    const r = await bob.callOk("publickeyhistoryservice.verify_with_history", {
      signature: sig,
      entity_type: "resident",
      entity_id: resident,
    });
    expect(r).toMatchObject({ valid: false, reason: "key_mismatch", public_key: real.publicKey, key_version: 1 });
  });

  test("a signature that was not recorded for the entity, or an unknown entity, is VerifyError NotFound", async () => {
    const { client: ada, resident } = await member(t);
    const kp = newKeypair();
    await store(ada, "resident", resident, kp);
    const sig = kp.sign(documentHash("never submitted"));
    for (const entity_id of [resident, "FZ-2026-RA999999"]) {
      const r = await bob.call("publickeyhistoryservice.verify_with_history", {
        signature: sig,
        entity_type: "resident",
        entity_id,
      });
      expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "VerifyError", variant: "NotFound" } });
    }
  });

  test("a key version missing from the history is KeypairError NotFound", async () => {
    const { client: ada, resident } = await member(t);
    const kp = newKeypair();
    await store(ada, "resident", resident, kp);
    const hash = documentHash("version 7");
    const sig = kp.sign(hash);
    await insertRow(t.app.runtime.orm, "DocumentSignature", {
      user_id: ada.userId,
      partner_id: null,
      entity_type: "resident",
      entity_id: resident,
      document_type: "other",
      document_hash: hash,
      signature: sig,
      public_key: kp.publicKey,
      key_version: 7,
      receipt_id: "fzrc_v7",
      signed_at: t.clock.now(),
    });
    const r = await bob.call("publickeyhistoryservice.verify_with_history", {
      signature: sig,
      entity_type: "resident",
      entity_id: resident,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "KeypairError", variant: "NotFound" } });
  });

  test("malformed or non-canonical signatures are InvalidInput", async () => {
    const { resident } = await member(t);
    const kp = newKeypair();
    const sig = kp.sign(documentHash("q"));
    for (const signature of [sig.slice(4), `${sig.slice(2)}zz`, malleableTwin(sig)]) {
      const r = await bob.call("publickeyhistoryservice.verify_with_history", {
        signature,
        entity_type: "resident",
        entity_id: resident,
      });
      expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "VerifyError", variant: "InvalidInput" } });
    }
  });
});
