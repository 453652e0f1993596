import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newKeypair } from "../signatures/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { member, person, startFinanceApp } from "../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../support/helpers.ts";
import { insertFullCompany } from "./support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const keypairError = (variant: string) => ({ type: "KeypairError", variant });

async function owned(extra: Record<string, unknown> = {}): Promise<{ o: Client; company: string }> {
  const o = await t.register(`keys-owner-${Math.random()}@example.org`);
  return { o, company: await insertFullCompany(t, o.userId, extra) };
}

const keyWrites = async (company: string) => ({
  row: await sql(
    t,
    `select public_key, encrypted_private_key, keypair_version::int as keypair_version from zone_company where company_id = ?`,
    [company],
  ),
  history: await sql(t, `select * from public_key_history where entity_id = ? order by version`, [company]),
});

function store(c: Client, company: string, kp = newKeypair()) {
  return c.call("companyservice.store_company_keypair", {
    company_id: company,
    public_key: kp.publicKey,
    encrypted_private_key: kp.encrypted,
  });
}

describe("companyservice.store_company_keypair", () => {
  test("stores, then replaces the pair: the version increments and the history keeps the old key", async () => {
    const { o, company } = await owned();
    const first = newKeypair();
    const r1 = await o.callOk("companyservice.store_company_keypair", {
      company_id: company,
      public_key: first.publicKey,
      encrypted_private_key: first.encrypted,
    });
    expect(r1).toMatchObject({ entity_type: "company", entity_id: company, keypair_version: 1, replaced: false });
    t.clock.advance(60);
    const second = newKeypair();
    const r2 = await o.callOk("companyservice.store_company_keypair", {
      company_id: company,
      public_key: second.publicKey,
      encrypted_private_key: second.encrypted,
    });
    expect(r2).toMatchObject({ keypair_version: 2, replaced: true, public_key: second.publicKey });
    const { row, history } = await keyWrites(company);
    expect(row).toEqual([
      { public_key: second.publicKey, encrypted_private_key: second.encrypted, keypair_version: 2 },
    ]);
    expect(history.map((h) => [Number(h.version), h.public_key, h.valid_to === null])).toEqual([
      [1, first.publicKey, false],
      [2, second.publicKey, true],
    ]);
    expect(await o.callOk("companyservice.get_key_status", { company_id: company })).toMatchObject({
      has_keypair: true,
      public_key: second.publicKey,
      keypair_version: 2,
      has_encrypted_private_key: true,
    });
  });

  test("a malformed, upper-case or small-order public key, or a plain private key, is InvalidInput; nothing written", async () => {
    const { o, company } = await owned();
    const kp = newKeypair();
    const plain = `${"ab".repeat(12)}:${Buffer.from(kp.secret).toString("hex")}${"00".repeat(16)}`;
    const cases = [
      { public_key: "zz", encrypted_private_key: kp.encrypted },
      { public_key: kp.publicKey.toUpperCase(), encrypted_private_key: kp.encrypted },
      { public_key: `01${"00".repeat(31)}`, encrypted_private_key: kp.encrypted },
      { public_key: kp.publicKey, encrypted_private_key: plain },
    ];
    for (const params of cases) {
      await refusedNoWrite(
        () => keyWrites(company),
        () => o.call("companyservice.store_company_keypair", { company_id: company, ...params }),
        -32006,
        keypairError("InvalidInput"),
      );
    }
  });

  test("a shareholder is Forbidden, an outsider NotFound, a voided company InvalidState; nothing written", async () => {
    const { company } = await owned();
    const holder = await person(t, company, "shareholder");
    const stranger = await member(t);
    await refusedNoWrite(
      () => keyWrites(company),
      () => store(holder.client, company),
      -32002,
      keypairError("Forbidden"),
    );
    await refusedNoWrite(
      () => keyWrites(company),
      () => store(stranger.client, company),
      -32003,
      keypairError("NotFound"),
    );
    const voided = await owned({ status: "voided" });
    await refusedNoWrite(
      () => keyWrites(voided.company),
      () => store(voided.o, voided.company),
      -32005,
      keypairError("InvalidState"),
    );
  });
});

describe("reading the company's encrypted private key (one rule, two operations)", () => {
  async function withKey() {
    const { o, company } = await owned();
    const kp = newKeypair();
    await o.callOk("companyservice.store_company_keypair", {
      company_id: company,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    return { o, company, kp };
  }

  test("the owner and a current founder read the blob verbatim through both operations", async () => {
    const { o, company, kp } = await withKey();
    const founder = await person(t, company, "founder");
    const expected = {
      entity_type: "company",
      entity_id: company,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
      keypair_version: 1,
    };
    for (const reader of [o, founder.client]) {
      expect(await reader.callOk("companyservice.get_company_encrypted_key", { company_id: company })).toEqual(
        expected,
      );
      expect(
        await reader.callOk("keypairservice.get_encrypted_private_key", { entity_type: "company", entity_id: company }),
      ).toEqual(expected);
    }
  });

  test("a director or shareholder is Forbidden here and NotFound through keypairservice", async () => {
    const { company } = await withKey();
    for (const role of ["director", "shareholder"]) {
      const m = await person(t, company, role);
      expect(
        errorOf(await m.client.call("companyservice.get_company_encrypted_key", { company_id: company })),
      ).toMatchObject({ code: -32002, data: keypairError("Forbidden") });
      expect(
        errorOf(
          await m.client.call("keypairservice.get_encrypted_private_key", {
            entity_type: "company",
            entity_id: company,
          }),
        ),
      ).toMatchObject({ code: -32003, data: keypairError("NotFound") });
    }
  });

  test("a founder whose role ended no longer reads the key", async () => {
    const { company } = await withKey();
    const past = await person(t, company, "founder", { valid_to: new Date("2026-06-01T00:00:00.000Z") });
    expect(
      errorOf(await past.client.call("companyservice.get_company_encrypted_key", { company_id: company })).code,
    ).toBe(-32003);
  });

  test("outsiders and administrators get NotFound", async () => {
    const { company } = await withKey();
    const stranger = await member(t);
    const admin = await t.admin();
    for (const c of [stranger.client, admin]) {
      expect(errorOf(await c.call("companyservice.get_company_encrypted_key", { company_id: company }))).toMatchObject({
        code: -32003,
        data: keypairError("NotFound"),
      });
      expect(
        errorOf(
          await c.call("keypairservice.get_encrypted_private_key", { entity_type: "company", entity_id: company }),
        ),
      ).toMatchObject({ code: -32003 });
    }
  });

  test("a company without a keypair is NotFound for the owner", async () => {
    const { o, company } = await owned();
    expect(errorOf(await o.call("companyservice.get_company_encrypted_key", { company_id: company }))).toMatchObject({
      code: -32003,
      data: keypairError("NotFound"),
    });
  });
});
