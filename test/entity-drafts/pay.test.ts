import { beforeEach, describe, expect, test } from "vitest";
import { balanceOf, postVerdict, verdict } from "../payments/support.ts";
import type { TestApp } from "../support/app.ts";
import { insertCompany, member, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";
import { COMPANY_DATA, draftTables, invitationOf, type Person, people, shareRow } from "./support.ts";

let t: TestApp;
let founder: Person;
let ann: Person;
let bob: Person;
beforeEach(async () => {
  t = await startFinanceApp({ paymentSweepIntervalS: 0 });
  founder = await member(t);
  [ann, bob] = (await people(t, 2)) as [Person, Person];
});

/** A company draft (founder 500 units, Ann 100 units, Bob director), signed by both and checked: all_signed. */
async function signedCompanyDraft(name = "Harbour Software FZC") {
  const d = await founder.client.callOk("entitydraftservice.create_draft", {
    entity_type: "company",
    entity_name: name,
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_DATA),
    shareholders: [
      shareRow(founder, 500, "Founder"),
      shareRow(ann, 100, "Ann"),
      { name: "Bob", email: bob.client.email, resident_id: null, units: 0, role: "director" },
    ],
  });
  await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
  for (const p of [ann, bob])
    await p.client.callOk("entitydraftservice.accept_invitation", { invitation_id: await invitationOf(p, d.sid) });
  await founder.client.callOk("entitydraftservice.check_completion", { draft_id: d.sid });
  return d;
}

async function fund(amount: number) {
  const topup = await founder.client.callOk("creditservice.initiate_topup", { amount, provider: "mobilepay" });
  await postVerdict(t, verdict(topup.mobilepay_order_id, "succeeded", amount));
}

describe("pay_and_activate", () => {
  test("debits the creator's wallet and registers the company with its pricing snapshot and roles", async () => {
    const d = await signedCompanyDraft();
    await fund(1000);
    const r = await founder.client.callOk("entitydraftservice.pay_and_activate", {
      draft_id: d.sid,
      subscription_plan: "monthly",
    });
    expect(r).toMatchObject({ status: "active", paid_at: t.clock.now().toISOString() });
    expect(r.company_id).toMatch(/^FZ-\d{4}-Y\d{6}$/);
    expect(r.shareholders.map((s) => s.resident_id)).toEqual([founder.resident, ann.resident, bob.resident]);
    const [company] = await sql(
      t,
      `select user_id, draft_id, status, address, subscription_plan, setup_fee_paid::float8 as fee,
              monthly_fee_rate::float8 as monthly from zone_company where company_id = ?`,
      [r.company_id],
    );
    expect(company).toMatchObject({
      user_id: founder.client.userId,
      draft_id: d.sid,
      status: "active",
      subscription_plan: "monthly",
      address: { line1: "2 Harbour Road", city: "Port Town", country: "AE" },
    });
    expect(company.fee).toBeGreaterThan(0);
    expect(await balanceOf(t, founder.client.userId)).toBe(1000 - company.fee - company.monthly);
    const roles = await sql<{ subject_id: string; role: string }>(
      t,
      "select subject_id, role from company_role where company_id = ? order by role, subject_id",
      [r.company_id],
    );
    expect(roles.map((x) => `${x.role}:${x.subject_id}`).sort()).toEqual(
      [
        `founder:${founder.resident}`,
        `shareholder:${founder.resident}`,
        `shareholder:${ann.resident}`,
        `director:${bob.resident}`,
      ].sort(),
    );
    const inbox = await ann.client.callOk("messageservice.list_user_messages", {});
    expect(inbox.items.some((m: { title: string }) => m.title.includes("is registered"))).toBe(true);
  });

  test("an active draft cannot be paid again (InvalidState)", async () => {
    const d = await signedCompanyDraft();
    await fund(1000);
    await founder.client.callOk("entitydraftservice.pay_and_activate", {
      draft_id: d.sid,
      subscription_plan: "monthly",
    });
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        founder.client.call("entitydraftservice.pay_and_activate", { draft_id: d.sid, subscription_plan: "monthly" }),
      -32005,
      { type: "DraftError", variant: "InvalidState" },
    );
  });

  test("a name a registered company bears is AlreadyExists and nothing is written or debited", async () => {
    const other = await t.register("name-holder@example.org");
    await insertCompany(t, other.userId, { name: "Taken Name FZC" });
    const d = await signedCompanyDraft("Taken Name FZC");
    await fund(1000);
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        founder.client.call("entitydraftservice.pay_and_activate", { draft_id: d.sid, subscription_plan: "monthly" }),
      -32005,
      { type: "DraftError", variant: "AlreadyExists" },
    );
    expect(await balanceOf(t, founder.client.userId)).toBe(1000);
  });
});
