import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import { formCompany, journeyCast, signInAgain } from "./support.ts";

// Seed 001, tax: a company's quarterly filing is drafted, its figures computed at the configured rate, submitted with
// the password, accepted by the administrator, then amended: the amendment frees the period, carries the corrected
// figures and is submitted and accepted in turn, while the original reads `amended`. Members read filings and
// documents; a shareholder may not change them; an outsider does not see them. Public API only (see support.ts).

expectReached({
  TaxFilingStatus: ["draft", "submitted", "accepted", "amended", "rejected"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Mwangi" },
  bob: { first_name: "Bob", last_name: "Okafor" },
  eve: { first_name: "Eve", last_name: "Stranger" },
});

const Q4 = {
  filing_type: "quarterly" as const,
  period_start: "2026-10-01T00:00:00.000Z",
  period_end: "2027-01-01T00:00:00.000Z",
};

const STEPS = [
  "form the company",
  "the quarter ends: its deadline is listed",
  "draft the quarterly filing",
  "enter the figures",
  "submit with the password",
  "the administrator accepts",
  "generate the receipt",
  "amend the filing",
  "correct the figures and submit the amendment",
  "the administrator accepts the amendment",
  "a monthly filing is rejected by the administrator",
  "the rejected period is filed again",
] as const;

test(`tax: a filing and its amendment (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, eve } = cast;
  const { t } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the company");
  const { companyId } = await formCompany(zone, { resident: alice, units: 800 }, [{ resident: bob, units: 200 }]);

  step("the quarter ends: its deadline is listed");
  t.clock.set("2027-01-05T09:00:00.000Z");
  await signInAgain(zone, alice, bob, eve);
  const deadlines = await alice.client.callOk("taxservice.get_deadlines", { company_id: companyId });
  expect(deadlines.items).toContainEqual(
    expect.objectContaining({ ...Q4, due_date: "2027-01-31T00:00:00.000Z", filing_id: null, overdue: false }),
  );

  step("draft the quarterly filing");
  const filing = await alice.client.callOk("taxservice.create_filing", { company_id: companyId, ...Q4 });
  expect(filing).toMatchObject({
    status: "draft",
    currency: "USD",
    tax_rate: 0.15,
    tax_due: 0,
    reference_number: null,
  });
  const twice = await alice.client.call("taxservice.create_filing", { company_id: companyId, ...Q4 });
  expect("error" in twice && twice.error.data?.variant).toBe("AlreadyExists");

  step("enter the figures");
  const figures = await alice.client.callOk("taxservice.update_filing", {
    filing_id: filing.sid,
    gross_revenue: 10000,
    cost_of_goods_sold: 4000,
    operating_expenses: 2500.55,
  });
  // taxable 3499.45; 15 % = 524.9175 -> 524.92 (half to even at the cent)
  expect(figures).toMatchObject({ gross_profit: 6000, taxable_income: 3499.45, tax_due: 524.92 });
  const byShareholder = await bob.client.call("taxservice.update_filing", {
    filing_id: filing.sid,
    gross_revenue: 1,
    cost_of_goods_sold: 0,
    operating_expenses: 0,
  });
  expect("error" in byShareholder && byShareholder.error.code).toBe(-32002);
  expect((await bob.client.callOk("taxservice.get_filing", { filing_id: filing.sid })).tax_due).toBe(524.92);
  const outsider = await eve.client.call("taxservice.get_filing", { filing_id: filing.sid });
  expect("error" in outsider && outsider.error.code).toBe(-32003);

  step("submit with the password");
  const wrong = await alice.client.call("taxservice.submit_filing", {
    filing_id: filing.sid,
    submitted_by: alice.residentId,
    password: "not the password at all",
  });
  expect("error" in wrong && wrong.error.code).toBe(-32002);
  const submitted = await alice.client.callOk("taxservice.submit_filing", {
    filing_id: filing.sid,
    submitted_by: alice.residentId,
    password: PASSWORD,
  });
  expect(submitted).toMatchObject({
    status: "submitted",
    submitted_by: alice.residentId,
    submitted_at: t.clock.now().toISOString(),
    reference_number: "FZ-TAX-2027-000001",
  });
  const frozen = await alice.client.call("taxservice.update_filing", {
    filing_id: filing.sid,
    gross_revenue: 1,
    cost_of_goods_sold: 0,
    operating_expenses: 0,
  });
  expect("error" in frozen && frozen.error.code).toBe(-32005);

  step("the administrator accepts");
  expect((await zone.admin.callOk("taxservice.accept_filing", { filing_id: filing.sid })).status).toBe("accepted");
  // A filed period leaves the deadlines (they list the periods still to file and the current one).
  const listed = await alice.client.callOk("taxservice.get_deadlines", { company_id: companyId });
  expect(listed.items.filter((d) => d.period_start === Q4.period_start && d.filing_type === "quarterly")).toEqual([]);

  step("generate the receipt");
  const receipt = await alice.client.callOk("taxservice.generate_document", {
    filing_id: filing.sid,
    document_type: "receipt",
  });
  expect(receipt.content).toContain("FZ-TAX-2027-000001");
  expect(receipt.content_hash).toBe(createHash("sha256").update(receipt.content, "utf8").digest("hex"));
  const docs = await bob.client.callOk("taxservice.list_documents", { filing_id: filing.sid });
  expect(docs.items.map((d) => d.sid)).toEqual([receipt.sid]);

  step("amend the filing");
  const amendment = await alice.client.callOk("taxservice.create_filing", {
    company_id: companyId,
    ...Q4,
    amends_filing_id: filing.sid,
  });
  expect(amendment).toMatchObject({ status: "draft", amends_filing_id: filing.sid });
  expect((await bob.client.callOk("taxservice.get_filing", { filing_id: filing.sid })).status).toBe("amended");
  // An amended filing is amended once: the original is no longer submitted or accepted.
  const again = await alice.client.call("taxservice.create_filing", {
    company_id: companyId,
    ...Q4,
    amends_filing_id: filing.sid,
  });
  expect("error" in again && again.error.code).toBe(-32005);

  step("correct the figures and submit the amendment");
  const corrected = await alice.client.callOk("taxservice.update_filing", {
    filing_id: amendment.sid,
    gross_revenue: 10000,
    cost_of_goods_sold: 4000,
    operating_expenses: 3100,
  });
  expect(corrected).toMatchObject({ taxable_income: 2900, tax_due: 435 });
  const resubmitted = await alice.client.callOk("taxservice.submit_filing", {
    filing_id: amendment.sid,
    submitted_by: alice.residentId,
    password: PASSWORD,
  });
  expect(resubmitted).toMatchObject({ status: "submitted", reference_number: "FZ-TAX-2027-000002" });

  step("the administrator accepts the amendment");
  await zone.admin.callOk("taxservice.accept_filing", { filing_id: amendment.sid });
  const all = await bob.client.callOk("taxservice.list_filings", { company_id: companyId });
  expect(all.items.map((f) => [f.sid, f.status, f.tax_due]).sort()).toEqual(
    [
      [filing.sid, "amended", 524.92],
      [amendment.sid, "accepted", 435],
    ].sort(),
  );

  step("a monthly filing is rejected by the administrator");
  const DEC = {
    filing_type: "monthly" as const,
    period_start: "2026-12-01T00:00:00.000Z",
    period_end: "2027-01-01T00:00:00.000Z",
  };
  const monthly = await alice.client.callOk("taxservice.create_filing", { company_id: companyId, ...DEC });
  await alice.client.callOk("taxservice.update_filing", {
    filing_id: monthly.sid,
    gross_revenue: 3000,
    cost_of_goods_sold: 1000,
    operating_expenses: 500,
  });
  await alice.client.callOk("taxservice.submit_filing", {
    filing_id: monthly.sid,
    submitted_by: alice.residentId,
    password: PASSWORD,
  });
  const blank = await zone.admin.call("taxservice.reject_filing", { filing_id: monthly.sid, reason: "   " });
  expect("error" in blank && blank.error.data?.variant).toBe("InvalidInput");
  const byDirector = await alice.client.call("taxservice.reject_filing", { filing_id: monthly.sid, reason: "no" });
  expect("error" in byDirector).toBe(true);
  const rejected = await zone.admin.callOk("taxservice.reject_filing", {
    filing_id: monthly.sid,
    reason: "Operating expenses lack receipts.",
  });
  expect(rejected).toMatchObject({ status: "rejected", rejection_reason: "Operating expenses lack receipts." });
  expect(await bob.client.callOk("taxservice.get_filing", { filing_id: monthly.sid })).toMatchObject({
    status: "rejected",
    rejection_reason: "Operating expenses lack receipts.",
  });
  // A decided filing is decided once, and a rejected one cannot be amended.
  const reaccept = await zone.admin.call("taxservice.accept_filing", { filing_id: monthly.sid });
  expect("error" in reaccept && reaccept.error.code).toBe(-32005);
  const amendRejected = await alice.client.call("taxservice.create_filing", {
    company_id: companyId,
    ...DEC,
    amends_filing_id: monthly.sid,
  });
  expect("error" in amendRejected && amendRejected.error.code).toBe(-32005);

  step("the rejected period is filed again");
  const refiled = await alice.client.callOk("taxservice.create_filing", { company_id: companyId, ...DEC });
  expect(refiled).toMatchObject({ status: "draft", amends_filing_id: null });
  expect(refiled.sid).not.toBe(monthly.sid);

  expect(done).toEqual([...STEPS]);
});
