import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import type { Client, RpcReply, TestApp } from "../support/app.ts";
import { insertResident, malleableTwin, member, newKeypair, SMALL_ORDER_KEY, startSigningApp } from "./support.ts";

/**
 * The public vectors over HTTP: every Wycheproof case whose message is 32 bytes (a message this API can carry as
 * document_hash) through every verifying operation, and malformed inputs to every operation taking a key, a
 * signature or a hash. Each answer is a result or a clear declared error (-32602 or -32006), never -32603.
 */

interface Vector {
  tcId: number;
  msg: string;
  sig: string;
  result: string;
  pk: string;
}

const file = JSON.parse(readFileSync(new URL("../vectors/wycheproof/ed25519_test.json", import.meta.url), "utf8")) as {
  testGroups: { publicKey: { pk: string }; tests: Omit<Vector, "pk">[] }[];
};
const vectors: Vector[] = file.testGroups
  .flatMap((g) => g.tests.map((v) => ({ ...v, pk: g.publicKey.pk })))
  .filter((v) => v.msg.length === 64);

let t: TestApp;
let ada: Client;
/** A resident holding each vector's public key, and its owner. */
const holders = new Map<string, { owner: Client; resident: string }>();

beforeAll(async () => {
  t = await startSigningApp();
  ada = await t.register("ada@example.org");
  for (const pk of new Set(vectors.map((v) => v.pk))) {
    const { client: owner, resident } = await member(t);
    await owner.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: resident,
      public_key: pk,
      encrypted_private_key: newKeypair().encrypted,
    });
    holders.set(pk, { owner, resident });
  }
});

/** A result, or an error that is a clear refusal: invalid params or a declared -32006 variant. */
function clearAnswer(r: RpcReply, method: string) {
  if (r.error) {
    expect(r.error.code, `${method}: ${JSON.stringify(r.error)}`).not.toBe(-32603);
    expect([-32602, -32006], `${method}: ${JSON.stringify(r.error)}`).toContain(r.error.code);
    if (r.error.code === -32006) expect(["InvalidInput", "InvalidSignature"]).toContain(r.error.data?.variant);
  } else {
    expect(r.result, method).toBeTypeOf("object");
  }
}

describe("Wycheproof vectors with a 32-byte message, over HTTP", () => {
  test("there are three (tcId 84, 85, 99)", () => {
    expect(vectors.map((v) => [v.tcId, v.result])).toEqual([
      [84, "valid"],
      [85, "invalid"],
      [99, "valid"],
    ]);
  });

  test.each(vectors)("tcId $tcId ($result) verifies as the vector says everywhere", async (v) => {
    const holder = holders.get(v.pk);
    if (!holder) throw new Error(`no holder of ${v.pk}`);
    const { owner, resident: signer } = holder;
    const verifyParams = { signature: v.sig, document_hash: v.msg, signer_id: signer, signer_type: "resident" };
    for (const method of ["keypairservice.verify_signature", "documentservice.verify"]) {
      const r = await ada.rpc(method, verifyParams);
      clearAnswer(r, method);
      if (v.result === "valid") expect(r.result).toMatchObject({ valid: true, public_key: v.pk, reason: null });
      else expect(r.result?.valid ?? false).toBe(false);
    }
    const submitted = await owner.rpc("documentservice.submit_signed", {
      entity_type: "resident",
      entity_id: signer,
      document_type: "other",
      document_hash: v.msg,
      signature: v.sig,
    });
    clearAnswer(submitted, "documentservice.submit_signed");
    expect(Boolean(submitted.result)).toBe(v.result === "valid");
    const again = await ada.rpc("publickeyhistoryservice.verify_with_history", {
      signature: v.sig,
      entity_type: "resident",
      entity_id: signer,
    });
    if (v.result === "valid") expect(again.result).toMatchObject({ valid: true, document_hash: v.msg });
    else expect(again.error?.code).toBeOneOf([-32003, -32006]);
  });
});

describe("malformed keys, signatures and hashes get a clear error from every operation", () => {
  const kp = newKeypair();
  const hash = "ab".repeat(32);
  const sig = kp.sign(hash);
  const badSignatures = [
    ["too short", sig.slice(2)],
    ["too long", `${sig}00`],
    ["not hex", `${sig.slice(2)}zz`],
    ["upper case", sig.toUpperCase()],
    ["non-canonical S (S + L)", malleableTwin(sig)],
    ["S = 2^256 - 1", `${sig.slice(0, 64)}${"ff".repeat(32)}`],
    ["a number", 12345],
    ["null", null],
  ] as const;
  const badHashes = [
    ["31 bytes", hash.slice(2)],
    ["not hex", `${hash.slice(2)}zz`],
    ["upper case", hash.toUpperCase()],
  ] as const;
  const badKeys = [
    ["31 bytes", kp.publicKey.slice(2)],
    ["not hex", `${kp.publicKey.slice(2)}zz`],
    ["small order", SMALL_ORDER_KEY],
    ["y = p", `ed${"ff".repeat(30)}7f`],
  ] as const;

  let signer: string;
  beforeAll(async () => {
    signer = await insertResident(t, ada.userId);
    await ada.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: signer,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
  });

  const calls = (signature: unknown, document_hash: unknown): [string, Record<string, unknown>][] => [
    ["keypairservice.verify_signature", { signature, document_hash, signer_id: signer, signer_type: "resident" }],
    ["documentservice.verify", { signature, document_hash, signer_id: signer, signer_type: "resident" }],
    [
      "documentservice.submit_signed",
      { entity_type: "resident", entity_id: signer, document_type: "other", document_hash, signature },
    ],
  ];

  test.each(badSignatures)("signature %s", async (_name, signature) => {
    for (const [method, params] of calls(signature, hash)) clearAnswer(await ada.rpc(method, params), method);
    const r = await ada.rpc("publickeyhistoryservice.verify_with_history", {
      signature,
      entity_type: "resident",
      entity_id: signer,
    });
    clearAnswer(r, "verify_with_history");
    expect(r.error).toBeDefined();
  });

  test.each(badHashes)("document_hash %s", async (_name, documentHashParam) => {
    for (const [method, params] of calls(sig, documentHashParam)) {
      const r = await ada.rpc(method, params);
      clearAnswer(r, method);
      expect(r.error?.data?.variant ?? r.error?.code).toBeOneOf(["InvalidInput", -32602]);
    }
  });

  test.each(badKeys)("public key %s", async (_name, public_key) => {
    const r = await ada.rpc("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: signer,
      public_key,
      encrypted_private_key: kp.encrypted,
    });
    clearAnswer(r, "store_client_keypair");
    expect(r.error?.data).toMatchObject({ type: "KeypairError", variant: "InvalidInput" });
  });
});
