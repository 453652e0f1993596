import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { formCompany, journeyCast, signInAgain, vote } from "./support.ts";

// Seed 001, the company's office: a founder-run company with a second director keeps its contracts (drafted, sent
// for signature, in force, lapsed at its end date, archived), its expenses (recorded, submitted, approved or
// rejected by the other director, never by the one who submitted) and a proposal nobody tallied, which expires once
// the expiry window after its voting end has passed and the instance's sweep runs. Public API only (see
// support.ts); time passes with the test clock and the instance's jobs (`app.runJobs`).

expectReached({
  ContractStatus: ["draft", "pending_signature", "active", "expired", "archived"],
  ExpenseStatus: ["draft", "submitted", "approved", "rejected"],
  ProposalStatus: ["active", "expired"],
  CompanyRoleKind: ["director"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Founder" },
  bob: { first_name: "Bob", last_name: "Director" },
  eve: { first_name: "Eve", last_name: "Outsider" },
});

const STEPS = [
  "form the company: a founder and a second director",
  "a director drafts a contract; a stranger cannot read it",
  "the contract is sent for signature, then in force",
  "its end date passes: it reads expired and takes no edit",
  "the expired contract is archived",
  "the founder records an expense and submits it",
  "the submitter may not approve it; the other director does",
  "a second expense is rejected with a reason by the other director",
  "a decided expense takes no second decision",
  "a proposal nobody tallies expires after its window",
] as const;

const DAY = 86_400;

test(`the company's office: contracts, expenses, an expired proposal (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, eve } = cast;
  const { t } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the company: a founder and a second director");
  const { companyId } = await formCompany(
    zone,
    { resident: alice, units: 1000 },
    [{ resident: bob, units: 0, role: "director" }],
    { plan: "one_year" },
  );
  const roles = await bob.client.callOk("companyroleservice.list_by_company", {
    company_id: companyId,
    as_of_epoch: 0,
  });
  expect(roles.items.filter((r) => r.holder_name === bob.name).map((r) => r.role)).toEqual(["director"]);

  step("a director drafts a contract; a stranger cannot read it");
  const start = t.clock.now();
  const end = new Date(start.getTime() + 30 * DAY * 1000).toISOString();
  const contract = await bob.client.callOk("contractservice.create_company_contract", {
    fzc_id: companyId,
    data: {
      name: "Office cleaning",
      contract_type: "service",
      counterparty: "Spotless Ltd",
      start_date: start.toISOString(),
      end_date: end,
    },
  });
  expect(contract).toMatchObject({ status: "draft", name: "Office cleaning", counterparty: "Spotless Ltd" });
  const stranger = await eve.client.call("contractservice.get_company_contract", {
    fzc_id: companyId,
    contract_id: contract.sid,
  });
  expect("error" in stranger && stranger.error.code).toBe(-32003);

  step("the contract is sent for signature, then in force");
  const edit = (data: Record<string, unknown>) =>
    alice.client.call("contractservice.update_company_contract", {
      fzc_id: companyId,
      contract_id: contract.sid,
      data,
    });
  const pending = await edit({ status: "pending_signature" });
  expect("result" in pending && pending.result.status).toBe("pending_signature");
  const active = await edit({ status: "active" });
  expect("result" in active && active.result.status).toBe("active");
  // Backwards is refused.
  const back = await edit({ status: "pending_signature" });
  expect("error" in back && back.error.data?.variant).toBe("InvalidState");

  step("its end date passes: it reads expired and takes no edit");
  t.clock.set(new Date(Date.parse(end) + 1000).toISOString());
  await t.app.runJobs();
  await signInAgain(zone, alice, bob, eve);
  const listed = await alice.client.callOk("contractservice.list_company_contracts", { fzc_id: companyId });
  expect(listed.items.find((c) => c.sid === contract.sid)?.status).toBe("expired");
  const late = await edit({ name: "Office cleaning, renewed" });
  expect("error" in late && late.error.data?.variant).toBe("InvalidState");

  step("the expired contract is archived");
  const archived = await bob.client.callOk("contractservice.archive_company_contract", {
    fzc_id: companyId,
    contract_id: contract.sid,
  });
  expect(archived.status).toBe("archived");
  const read = await alice.client.callOk("contractservice.get_company_contract", {
    fzc_id: companyId,
    contract_id: contract.sid,
  });
  expect(read.status).toBe("archived");

  step("the founder records an expense and submits it");
  const expense = (receipt: string, amount: number) =>
    alice.client.callOk("expenseservice.create", {
      fzc_id: companyId,
      data: {
        receipt_number: receipt,
        vendor_name: "Harbour Stationers",
        description: "printer paper and toner",
        amount,
        currency: "USD",
        category: "office",
        expense_date: t.clock.now().toISOString(),
      },
    });
  const first = await expense("R-100", 84.35);
  expect(first).toMatchObject({ status: "draft", amount: 84.35 });
  const submitted = await alice.client.callOk("expenseservice.submit", { expense_id: first.sid });
  expect(submitted.status).toBe("submitted");

  step("the submitter may not approve it; the other director does");
  const own = await alice.client.call("expenseservice.approve", {
    expense_id: first.sid,
    approved_by: alice.residentId,
  });
  expect("error" in own && own.error.data?.variant).toBe("SelfApproval");
  const approved = await bob.client.callOk("expenseservice.approve", {
    expense_id: first.sid,
    approved_by: bob.residentId,
  });
  expect(approved).toMatchObject({ status: "approved", approved_by: bob.residentId, self_decided: false });
  expect((await alice.client.callOk("expenseservice.get", { expense_id: first.sid })).status).toBe("approved");

  step("a second expense is rejected with a reason by the other director");
  const second = await expense("R-101", 1250);
  await alice.client.callOk("expenseservice.submit", { expense_id: second.sid });
  const rejected = await bob.client.callOk("expenseservice.reject", {
    expense_id: second.sid,
    rejected_by: bob.residentId,
    reason: "  Not a company cost.  ",
  });
  expect(rejected).toMatchObject({ status: "rejected", rejection_reason: "Not a company cost." });

  step("a decided expense takes no second decision");
  const twice = await bob.client.call("expenseservice.approve", {
    expense_id: second.sid,
    approved_by: bob.residentId,
  });
  expect("error" in twice && twice.error.data?.variant).toBe("InvalidState");
  const all = await alice.client.callOk("expenseservice.list", { fzc_id: companyId });
  expect(all.items.map((e) => [e.receipt_number, e.status]).sort()).toEqual([
    ["R-100", "approved"],
    ["R-101", "rejected"],
  ]);

  step("a proposal nobody tallies expires after its window");
  const proposal = await alice.client.callOk("governanceservice.create_proposal", {
    company_id: companyId,
    title: "Move to a larger office",
    description: "Lease the second floor.",
    category: "strategic",
    kind: "ordinary",
    voting_days: 1,
    allow_abstention: false,
  });
  expect(proposal.status).toBe("active");
  await vote(alice, proposal.sid, "for");
  const hours = t.config.proposals.expiryHours;
  // The voting end passed, but the expiry window has not: the sweep leaves it active.
  t.clock.set(new Date(Date.parse(proposal.voting_ends_at) + hours * 3600 * 1000 - 1000).toISOString());
  await t.app.runJobs();
  await signInAgain(zone, alice);
  const open = await alice.client.callOk("governanceservice.get_proposal", { proposal_id: proposal.sid });
  expect(open.status).toBe("active");
  t.clock.advance(2);
  await t.app.runJobs();
  await signInAgain(zone, alice, bob);
  const expired = await bob.client.callOk("governanceservice.get_proposal", { proposal_id: proposal.sid });
  expect(expired.status).toBe("expired");
  const tally = await alice.client.call("governanceservice.tally_votes", { proposal_id: proposal.sid });
  expect("error" in tally && tally.error.code).toBe(-32005);

  expect(done).toEqual([...STEPS]);
});
