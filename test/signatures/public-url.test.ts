import { beforeAll, describe, expect, test } from "vitest";
import { publicVerifyKey, publicVerifySignatureValid } from "../../src/domain/public-verify-url.ts";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";
import { insertCompany, insertProxy, insertRole, member, startSigningApp } from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;

beforeAll(async () => {
  t = await startSigningApp();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

const url = (client: Client, entity_type: string, id: string) =>
  client.call("verificationservice.public_verify_url", { entity_type, id });

async function externalId(table: string, column: string, id: string): Promise<string> {
  const [row] = await sql(t, `select external_id from "${table}" where ${column} = ?`, [id]);
  return row.external_id;
}

describe("verificationservice.public_verify_url", () => {
  test("the owner gets a server-signed URL on the resident's external id, the same each time", async () => {
    const { client: ada, resident } = await member(t);
    const ext = await externalId("digital_resident", "resident_id", resident);
    const r = await ada.callOk("verificationservice.public_verify_url", { entity_type: "individual", id: resident });
    expect(r.external_id).toBe(ext);
    expect(r.verify_url).toMatch(
      new RegExp(`^${t.config.publicBaseUrl}/verify/individual/${ext}\\?sig=[A-Za-z0-9_-]{43}$`),
    );
    expect(r.verify_url).not.toContain(resident);
    expect(
      await ada.callOk("verificationservice.public_verify_url", { entity_type: "individual", id: resident }),
    ).toEqual(r);

    const sig = new URL(r.verify_url ?? "").searchParams.get("sig") ?? "";
    const key = publicVerifyKey(t.config.encryptionKey);
    expect(publicVerifySignatureValid(key, "individual", ext, sig)).toBe(true);
    expect(publicVerifySignatureValid(key, "company", ext, sig)).toBe(false);
    expect(publicVerifySignatureValid(key, "individual", `${ext}0`, sig)).toBe(false);
    expect(publicVerifySignatureValid(publicVerifyKey(Buffer.alloc(32, 7)), "individual", ext, sig)).toBe(false);
  });

  test("the URL opens the resident: its external id is a lookup key for verify_individual", async () => {
    const { resident } = await member(t);
    const ext = await externalId("digital_resident", "resident_id", resident);
    const r = await t.callOk("verificationservice.verify_individual", { resident_id: ext, requester_tier: 1 });
    expect(r.resident_id).toBe(resident);
  });

  test("a legacy row without an external id has no URL", async () => {
    const { client: ada, resident: legacy } = await member(t, { external_id: null });
    expect(
      await ada.callOk("verificationservice.public_verify_url", { entity_type: "individual", id: legacy }),
    ).toEqual({
      entity_type: "individual",
      id: legacy,
      external_id: null,
      verify_url: null,
    });
  });

  test("a company's owner user gets its URL; a director or an administrator gets NotOwner; a stranger NotFound", async () => {
    const company = await insertCompany(t, ada.userId);
    const ext = await externalId("zone_company", "company_id", company);
    const r = await ada.callOk("verificationservice.public_verify_url", { entity_type: "company", id: company });
    expect(r.verify_url).toContain(`/verify/company/${ext}?sig=`);
    const director = await member(t);
    await insertRole(t, company, director.resident, "director");
    const admin = await t.admin();
    for (const client of [director.client, admin]) {
      expect(errorOf(await url(client, "company", company))).toMatchObject({
        code: -32002,
        data: { type: "VerificationError", variant: "NotOwner" },
      });
    }
    const carol = await t.register("carol@example.org");
    expect(errorOf(await url(carol, "company", company))).toMatchObject({
      code: -32003,
      data: { variant: "NotFound" },
    });
  });

  test("a proxy is not the owner (NotOwner); a stranger and an unknown id get NotFound", async () => {
    const { client: ada, resident } = await member(t);
    const proxy = await member(t);
    await insertProxy(t, proxy.resident, resident);
    expect(errorOf(await url(proxy.client, "individual", resident))).toMatchObject({
      code: -32002,
      data: { variant: "NotOwner" },
    });
    const dave = await t.register("dave@example.org");
    expect(errorOf(await url(dave, "individual", resident))).toMatchObject({ code: -32003 });
    expect(errorOf(await url(ada, "individual", "FZ-2026-RA999999"))).toMatchObject({ code: -32003 });
  });

  test("only the formatted id names the entity here, not its external id", async () => {
    const { client: ada, resident } = await member(t);
    const ext = await externalId("digital_resident", "resident_id", resident);
    expect(errorOf(await url(ada, "individual", ext))).toMatchObject({ code: -32003 });
  });

  test("another entity_type is InvalidInput; another caller_user_id is refused by caller binding", async () => {
    const { client: ada, resident } = await member(t);
    for (const entity_type of ["resident", "Individual", ""]) {
      expect(errorOf(await url(ada, entity_type, resident))).toMatchObject({
        code: -32006,
        data: { type: "VerificationError", variant: "InvalidInput" },
      });
    }
    const r = await bob.call("verificationservice.public_verify_url", {
      entity_type: "individual",
      id: resident,
      caller_user_id: ada.userId,
    });
    expect(errorOf(r)).toMatchObject({ code: -32002 });
  });
});
