import { beforeAll, describe, expect, test } from "vitest";
import { insertFullCompany } from "../company-service/support.ts";
import { limits } from "../identity/support.ts";
import { createResident } from "../residents/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { insertCompany, newKeypair, startSigningApp } from "./support.ts";

/**
 * GET /verify/<kind>/<external_id>?sig= (what public_verify_url hands out) and what anonymity masks in the public
 * lookups (issue 29 items 9 and 10). Residents are made through residentservice.create; companies, whose creation
 * belongs to the registration journey, are inserted as the other verification tests do.
 */

let t: TestApp;
let users = 0;

beforeAll(async () => {
  t = await startSigningApp();
});

async function get(app: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await app.app.fetch(new Request(url, { headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A signed-in user with a resident made through the API, its key stored; its public verify URL. */
async function resident(first_name: string, last_name: string) {
  users += 1;
  const owner = await t.register(`${first_name.toLowerCase()}-${users}@example.org`);
  const r = await createResident(owner, { first_name, last_name, email: owner.email });
  const kp = newKeypair();
  await owner.callOk("keypairservice.store_client_keypair", {
    entity_type: "resident",
    entity_id: r.resident_id,
    public_key: kp.publicKey,
    encrypted_private_key: kp.encrypted,
  });
  const { verify_url, external_id } = await owner.callOk("verificationservice.public_verify_url", {
    entity_type: "individual",
    id: r.resident_id,
  });
  if (!verify_url || !external_id) throw new Error("a new resident has an external id");
  return { owner, id: r.resident_id, externalId: external_id, url: verify_url, publicKey: kp.publicKey };
}

async function companyUrl(owner: Client, company: string): Promise<string> {
  const r = await owner.callOk("verificationservice.public_verify_url", { entity_type: "company", id: company });
  if (!r.verify_url) throw new Error("the company has an external id");
  return r.verify_url;
}

const withSig = (url: string, sig: string | null) => {
  const u = new URL(url);
  if (sig === null) u.searchParams.delete("sig");
  else u.searchParams.set("sig", sig);
  return u.toString();
};

describe("GET the public verify URL", () => {
  test("answers 200 with the anonymous tier-1 verdict as HTML, and the same result as JSON on request", async () => {
    const ada = await resident("Ada", "Lovelace");
    const page = await get(t, ada.url, { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain("Resident verification");
    // A new resident is pending and its identity is not verified yet.
    expect(page.text).toContain("Not verified");
    expect(page.text).toContain(ada.externalId);
    expect(page.text).not.toContain(ada.publicKey);
    expect(page.text).not.toContain("Lovelace");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
    expect(csp).not.toContain("script-src");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("x-frame-options")).toBe("DENY");

    // Exactly what verify_individual answers an anonymous caller for the external id, even when the request
    // carries the owner's session (the page is the public view).
    const rpc = await t.callOk("verificationservice.verify_individual", {
      resident_id: ada.externalId,
      requester_tier: 1,
    });
    const json = await get(t, ada.url, { accept: "application/json", authorization: `Bearer ${ada.owner.token}` });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(json.text)).toEqual(rpc);
    expect(rpc).toMatchObject({ tier: 1, resident_id: ada.id, status: "pending", verified: false });
  });

  test("a company's URL answers its verdict", async () => {
    const owner = await t.register("company-owner@example.org");
    const company = await insertCompany(t, owner.userId);
    const page = await get(t, await companyUrl(owner, company));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Company verification");
    expect(page.text).toContain("Verified");
    expect(page.text).toContain(company);
  });

  test("a tampered, foreign or missing signature, or another kind, answers the plain 404 of an unknown path", async () => {
    const ada = await resident("Ada", "Byron");
    const bob = await resident("Bob", "Babbage");
    const unknownPath = await get(t, `${t.config.publicBaseUrl}/no-such-page`);
    expect(unknownPath.status).toBe(404);
    const sig = new URL(ada.url).searchParams.get("sig") ?? "";
    const flipped = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    const bobSig = new URL(bob.url).searchParams.get("sig") ?? "";
    const refused = [
      withSig(ada.url, flipped),
      withSig(ada.url, bobSig),
      withSig(ada.url, null),
      withSig(ada.url, ""),
      withSig(ada.url, `${sig}!`),
      ada.url.replace("/verify/individual/", "/verify/company/"),
      ada.url.replace("/verify/individual/", "/verify/resident/"),
    ];
    for (const url of refused) {
      const r = await get(t, url);
      expect({ url, status: r.status, text: r.text }).toEqual({ url, status: 404, text: unknownPath.text });
    }
  });
});

describe("anonymity masks every identifying field at tiers 1 and 2", () => {
  test("a resident: no formatted id, external id, name or public key, on the RPC lookups and on the page", async () => {
    const grace = await resident("Grace", "Hopper");
    await grace.owner.callOk("residentservice.set_anonymity", { resident_id: grace.id, enabled: true });
    const member = await t.register("member-viewer@example.org");
    const secrets = [grace.id, grace.externalId, grace.publicKey, "Grace", "Hopper"];
    const answers = [
      await t.callOk("verificationservice.verify_individual", { resident_id: grace.externalId, requester_tier: 1 }),
      await t.callOk("verificationservice.verify_individual", { resident_id: grace.id, requester_tier: 1 }),
      await member.callOk("verificationservice.verify_individual", {
        resident_id: grace.externalId,
        requester_tier: 2,
      }),
      await member.callOk("verificationservice.verify_individual", { resident_id: grace.id, requester_tier: 2 }),
    ];
    for (const r of answers) {
      const text = JSON.stringify(r);
      for (const secret of secrets) expect(text).not.toContain(secret);
      // The verdict still answers.
      expect(r).toMatchObject({
        anonymity_applied: true,
        status: "pending",
        verified: false,
        identity_verified: false,
      });
      expect(r).toMatchObject({ resident_id: null, external_id: null, public_key: null, member_since: null });
    }
    expect(answers[2]).toMatchObject({ tier: 2, subscription_status: expect.any(String), keypair_version: null });

    const page = await get(t, grace.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Not verified");
    expect(page.text).toContain("only the verdict is shown");
    for (const secret of secrets) expect(page.text).not.toContain(secret);
    const json = await get(t, grace.url, { accept: "application/json" });
    for (const secret of secrets) expect(json.text).not.toContain(secret);
  });

  test("a company: no formatted id, external id, name, registration number or public key", async () => {
    const owner = await t.register("shy-company@example.org");
    const kp = newKeypair();
    // A full profile: companyservice.set_anonymity answers the CompanyResult, which needs the address.
    const company = await insertFullCompany(t, owner.userId, {
      name: "Quiet Looms FZC",
      registration_number: "REG-QUIET-1",
      public_key: kp.publicKey,
      keypair_version: 1,
    });
    await owner.callOk("companyservice.set_anonymity", { company_id: company, enabled: true });
    const url = await companyUrl(owner, company);
    const externalId = decodeURIComponent(new URL(url).pathname.split("/").at(-1) ?? "");
    const member = await t.register("company-viewer@example.org");
    const secrets = [company, externalId, "Quiet Looms", "REG-QUIET-1", kp.publicKey];
    const answers = [
      await t.callOk("verificationservice.verify_company", { company_id: externalId, requester_tier: 1 }),
      await member.callOk("verificationservice.verify_company", { company_id: externalId, requester_tier: 2 }),
      await member.callOk("verificationservice.verify_company", { company_id: company, requester_tier: 2 }),
    ];
    for (const r of answers) {
      const text = JSON.stringify(r);
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(r).toMatchObject({ anonymity_applied: true, verified: true, status: "active", company_id: null });
      expect(r).toMatchObject({ registered_at: null, public_key: null, keypair_version: null });
    }
    const page = await get(t, url);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Verified");
    for (const secret of secrets) expect(page.text).not.toContain(secret);
  });
});

// Last in the file: starting another app closes the shared one.
describe("the page counts against the lookup limit", () => {
  test("past the per-address lookup limit the page answers 429 with Retry-After", async () => {
    const limited = await startTestApp({ rateLimits: limits({ perAddressPerMinute: 1 }) });
    const owner = await limited.register("limited@example.org");
    const company = await insertCompany(limited, owner.userId);
    const url = (await owner.callOk("verificationservice.public_verify_url", { entity_type: "company", id: company }))
      .verify_url as string;
    expect((await get(limited, url)).status).toBe(200);
    const again = await get(limited, url);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(again.text).toContain("Too many lookups");
  });
});
