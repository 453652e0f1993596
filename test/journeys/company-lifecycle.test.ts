import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { ensureFunds, formCompany, journeyCast, signInAgain } from "./support.ts";

// Seed 000, a company's status over its life: its monthly subscription lapses (inactive: business refused, renewal
// allowed), the owner renews it (active), the administrator suspends it (only reads; no renewal) and lifts the
// suspension (back where its dates put it), then voids the registration (final: kept for reading, nothing else).
// Public API only (see support.ts).

expectReached({
  CompanyStatus: ["active", "inactive", "suspended", "voided"],
});

const cast = journeyCast({ ada: { first_name: "Ada", last_name: "Lovelace", spare: 500 } });

test("a company lapses, is renewed, suspended, reinstated and voided", async () => {
  const { zone, ada } = cast;
  const { t } = zone;
  const { companyId } = await formCompany(zone, { resident: ada, units: 1000 }, [], { plan: "monthly" });
  const company = () => ada.client.callOk("companyservice.get", { company_id: companyId });
  const invoice = () =>
    ada.client.call("invoiceservice.create", {
      fzc_id: companyId,
      data: {
        description: "Consulting",
        currency: "USD",
        due_date: "2027-06-30T00:00:00.000Z",
        recipient_email: "client@example.org",
        line_items: [{ description: "Advice", quantity: 1, unit_price: 100, amount: 100, tax_rate: 0 }],
      },
    });
  const refusedFor = async (r: ReturnType<typeof invoice>, status: string) =>
    expect(await r).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState", status } } });
  const end = (await company()).subscription_end_date ?? "";
  expect(end).toBe("2026-12-23T10:00:00.000Z");

  // A second before the end the company still operates; the lapse sweep at the end makes it inactive.
  t.clock.set(new Date(new Date(end).getTime() - 1000).toISOString());
  await t.app.runJobs();
  await signInAgain(zone, ada);
  expect((await company()).status).toBe("active");
  t.clock.set(end);
  await t.app.runJobs();
  await signInAgain(zone, ada);
  expect((await company()).status).toBe("inactive");
  await refusedFor(invoice(), "inactive");

  // The owner renews from the wallet: active again, a month from now.
  await ensureFunds(zone, ada.client, 200);
  const renewed = await ada.client.callOk("paymentservice.initiate_company_renewal", {
    company_id: companyId,
    plan: "1_month",
  });
  expect(renewed.subscription_end_date).toBe("2027-01-23T10:00:00.000Z");
  expect((await company()).status).toBe("active");
  expect("result" in (await invoice())).toBe(true);

  // Suspended by the administrator: readable, nothing else, not even a renewal.
  const blank = await zone.admin.call("adminservice.suspend_company", { company_id: companyId, reason: " " });
  expect(blank).toMatchObject({ error: { data: { variant: "InvalidInput" } } });
  await zone.admin.callOk("adminservice.suspend_company", { company_id: companyId, reason: "Licence review" });
  expect((await company()).status).toBe("suspended");
  await refusedFor(invoice(), "suspended");
  const renewSuspended = await ada.client.call("paymentservice.initiate_company_renewal", {
    company_id: companyId,
    plan: "1_month",
  });
  expect(renewSuspended).toMatchObject({ error: { code: -32005, data: { status: "suspended" } } });

  // Lifted: its period still runs, so it is active.
  const lifted = await zone.admin.callOk("adminservice.unsuspend_company", { company_id: companyId });
  expect(lifted.status).toBe("active");
  expect((await company()).status).toBe("active");

  // Voided: final, kept for reading.
  await zone.admin.callOk("adminservice.void_company", { company_id: companyId, reason: "Registered in error" });
  expect(await company()).toMatchObject({ status: "voided" });
  await refusedFor(invoice(), "voided");
  const unsuspend = await zone.admin.call("adminservice.unsuspend_company", { company_id: companyId });
  expect(unsuspend).toMatchObject({ error: { code: -32005 } });
  const again = await zone.admin.call("adminservice.void_company", { company_id: companyId, reason: "twice" });
  expect(again).toMatchObject({ error: { code: -32005 } });
});
