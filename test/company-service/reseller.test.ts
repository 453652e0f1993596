import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  adminWithKey,
  approvalSignature,
  type KeyPair,
  links,
  newPartner,
  type Partner,
  requiredContract,
  signedSubmit,
} from "../registration-requests/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertResident, member, startFinanceApp } from "../support/entities.ts";
import { count, errorOf, refusedNoWrite, sql } from "../support/helpers.ts";
import { balanceOf, companyData, fund, holder, insertFullCompany, registrationWrites } from "./support.ts";

let t: TestApp;
let admin: Client;
let adminKeys: KeyPair;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
  adminKeys = await adminWithKey(t, admin);
});
afterAll(() => t.close());

const forbidden = { type: "CompanyError", variant: "Forbidden" };
let partners = 0;

async function partner(allow: boolean): Promise<Partner & { resident: string }> {
  partners += 1;
  const p = await newPartner(t, admin, { name: `Reseller ${partners}`, allow_company_creation: allow });
  await fund(admin, p.walletUserId, 10_000);
  const resident = await insertResident(t, null, { partner_id: p.partnerId });
  return { ...p, resident };
}

describe("companyservice.create with a reseller key", () => {
  test("without allow_company_creation the key is Forbidden and nothing is written", async () => {
    const p = await partner(false);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => p.call("companyservice.create", { data: companyData(p.resident) }),
      -32002,
      forbidden,
    );
  });

  test("with it, the company is the partner's: owned by its wallet user, paid from that wallet", async () => {
    const p = await partner(true);
    const before = await balanceOf(t, p.walletUserId);
    const company = await p.callOk("companyservice.create", {
      data: companyData(p.resident, { owner_resident_id: p.resident }),
    });
    expect(company).toMatchObject({ status: "active", owner_resident_id: p.resident });
    const [row] = await sql(t, `select user_id, partner_id from zone_company where company_id = ?`, [
      company.company_id,
    ]);
    expect(row).toEqual({ user_id: p.walletUserId, partner_id: p.partnerId });
    expect(await balanceOf(t, p.walletUserId)).toBe(before - 375 - 50);
    const roles = await sql(t, `select subject_id, role from company_role where company_id = ? order by role`, [
      company.company_id,
    ]);
    expect(roles).toEqual([
      { subject_id: p.resident, role: "founder" },
      { subject_id: p.resident, role: "shareholder" },
    ]);
    // The partner's keys own it; another partner does not see it.
    expect((await p.callOk("companyservice.get", { company_id: company.company_id })).company_id).toBe(
      company.company_id,
    );
    const other = await partner(true);
    expect(errorOf(await other.call("companyservice.get", { company_id: company.company_id })).code).toBe(-32003);
  });

  test("without owner_resident_id the company has no founder row (the wallet user owns it)", async () => {
    const p = await partner(true);
    const company = await p.callOk("companyservice.create", { data: companyData(p.resident) });
    expect(company.owner_resident_id).toBeNull();
    const roles = await sql(t, `select role from company_role where company_id = ?`, [company.company_id]);
    expect(roles.map((r) => r.role)).toEqual(["shareholder"]);
  });

  test("a partner whose flag was withdrawn after the key was issued is Forbidden", async () => {
    const p = await partner(true);
    await sql(t, `update partner_configuration set allow_company_creation = false where sid = ?`, [p.partnerId]);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => p.call("companyservice.create", { data: companyData(p.resident) }),
      -32002,
      forbidden,
    );
  });

  test("a reseller key acting as a user other than the partner's wallet user is Forbidden", async () => {
    const p = await partner(true);
    const stranger = await member(t);
    await fund(admin, stranger.client.userId, 10_000);
    await sql(t, `update api_key set user_id = ? where partner_id = ?`, [stranger.client.userId, p.partnerId]);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => p.call("companyservice.create", { data: companyData(p.resident) }),
      -32002,
      forbidden,
    );
  });

  test("holders must be the partner's residents", async () => {
    const p = await partner(true);
    const personal = await member(t);
    const data = companyData(p.resident, {
      company_type: "startup_fzc",
      shareholders: [holder(p.resident), holder(personal.resident)],
    });
    await refusedNoWrite(
      () => registrationWrites(t),
      () => p.call("companyservice.create", { data }),
      -32002,
      forbidden,
    );
  });
});

describe("approving a company registration request", () => {
  let contract: string | null = null;
  async function companyRequest(p: Partner, clientName: string) {
    contract ??= await requiredContract(t, ["company"]);
    const linked = await links(t, p.walletUserId, [contract]);
    const r = await p.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(p, {
        client_email: `${clientName.replaceAll(" ", ".").toLowerCase()}@example.org`,
        client_name: clientName,
        request_type: "company",
        ...linked,
      }),
    );
    const approve = async () =>
      admin.call("adminregistrationservice.approve_registration", {
        request_id: r.request_id,
        admin_email: admin.email,
        admin_signature: await approvalSignature(t, adminKeys, r.request_id, admin.email),
      });
    return { requestId: r.request_id, approve };
  }

  test("registers the partner's company, paid by the linked payment, and names it as the created entity", async () => {
    const p = await partner(true);
    const before = await balanceOf(t, p.walletUserId);
    const { requestId, approve } = await companyRequest(p, "Zanzibar Spice Traders");
    const reply = await approve();
    if ("error" in reply) throw new Error(JSON.stringify(reply.error));
    const companyId = reply.result.created_entity_id ?? "";
    expect(companyId).toMatch(/^FZ-2026-Y\d{6}$/);
    const [row] = await sql(t, `select * from zone_company where company_id = ?`, [companyId]);
    expect(row).toMatchObject({
      user_id: p.walletUserId,
      partner_id: p.partnerId,
      name: "Zanzibar Spice Traders",
      email: "zanzibar.spice.traders@example.org",
      company_type: "single_fzc",
      status: "active",
      subscription_plan: "monthly",
      shareholders: [{ name: "Zanzibar Spice Traders", resident_id: null, role: "shareholder", units: 1 }],
    });
    expect(await balanceOf(t, p.walletUserId)).toBe(before);
    expect(
      await p.callOk("registrationrequestservice.get_registration_request_status", { request_id: requestId }),
    ).toMatchObject({ status: "approved", created_entity_id: companyId });
    expect((await p.callOk("companyservice.get", { company_id: companyId })).name).toBe("Zanzibar Spice Traders");
  });

  test("a name a registered company bears is InvalidState: the request stays, no company is made", async () => {
    const p = await partner(true);
    const o = await t.register("name-holder@example.org");
    await insertFullCompany(t, o.userId, { name: "Taken Traders" });
    const { requestId, approve } = await companyRequest(p, "Taken Traders");
    const companies = await count(t, "zone_company");
    const err = errorOf(await approve());
    expect(err).toMatchObject({
      code: -32005,
      data: { type: "AdminRegistrationError", variant: "InvalidState", failed: ["company_registration"] },
    });
    expect(await count(t, "zone_company")).toBe(companies);
    const [request] = await sql(t, `select status, created_entity_id from registration_request where sid = ?`, [
      requestId,
    ]);
    expect(request).toEqual({ status: "pending", created_entity_id: null });
  });
});
