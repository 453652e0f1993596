import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import {
  companyBalance,
  formCompany,
  fundAccount,
  journeyCast,
  openCompanyAccount,
  openResidentAccount,
  type Resident,
  residentBalance,
  rolesOf,
  vote,
} from "./support.ts";

// Seed 000/001, governance: a company formed through a draft holds an ordinary vote (proposal, votes weighted by
// units, tally, execution into a numbered resolution every member sees), then a dividend put to a vote
// (DIVIDEND_REQUIRES_VOTE on): its proposal passes, the tally approves the dividend, and execution pays each holder's
// treasury account its share to the cent. Public API only (see support.ts).

expectReached({
  ProposalStatus: ["active", "passed", "rejected", "executed"],
  DividendStatus: ["proposed", "approved", "processing", "completed", "cancelled"],
  CompanyRoleKind: ["founder", "shareholder"],
  TreasuryTransactionStatus: ["confirmed"],
});

const cast = journeyCast(
  {
    alice: { first_name: "Alice", last_name: "Mwangi" },
    bob: { first_name: "Bob", last_name: "Okafor" },
    carol: { first_name: "Carol", last_name: "Haddad" },
    dan: { first_name: "Dan", last_name: "Outsider" },
  },
  { dividends: { requireVote: true, voteDays: 7 } },
);

const STEPS = [
  "form the company through a draft (600 / 300 / 100 units)",
  "open an ordinary proposal",
  "vote: for 600, against 300, abstain 100",
  "tally once every unit has voted",
  "execute the resolution",
  "members read the resolution, an outsider does not",
  "open the company's USD account and fund it",
  "two of the three holders open a USD account",
  "initiate a dividend of 100.01 USD: it waits for its vote",
  "vote the dividend and tally: the dividend is approved",
  "execute the dividend: holders with an account are paid, the dividend waits in processing",
  "the third holder opens an account; executing again pays her and completes the dividend",
  "executing again pays nothing twice",
  "a second dividend voted down: its proposal is rejected, the dividend cancelled",
] as const;

test(`governance: proposal, votes, tally, resolution, voted dividend (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, carol, dan } = cast;
  const { t } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the company through a draft (600 / 300 / 100 units)");
  const company = await formCompany(zone, { resident: alice, units: 600 }, [
    { resident: bob, units: 300 },
    { resident: carol, units: 100 },
  ]);
  const companyId = company.companyId;
  expect(await rolesOf(carol.client, companyId)).toEqual({
    [alice.name]: ["founder", "shareholder"],
    [bob.name]: ["shareholder"],
    [carol.name]: ["shareholder"],
  });

  step("open an ordinary proposal");
  const proposal = await alice.client.callOk("governanceservice.create_proposal", {
    company_id: companyId,
    title: "Open a second office",
    description: "Lease an office in Stone Town for two years.",
    category: "strategic",
    kind: "ordinary",
    voting_days: 7,
    allow_abstention: true,
  });
  expect(proposal).toMatchObject({
    status: "active",
    proposer_id: alice.residentId,
    total_issued_power_snapshot: 1000,
    quorum_percentage: 50,
    passing_threshold: 50,
  });
  const power = await bob.client.callOk("governanceservice.get_voting_power", {
    company_id: companyId,
    resident_id: bob.residentId,
  });
  expect(power).toMatchObject({ voting_model: "standard", voting_power: 300, total_power: 1000 });

  step("vote: for 600, against 300, abstain 100");
  await vote(alice, proposal.sid, "for");
  await vote(bob, proposal.sid, "against");
  // Tallying before everyone voted and before the end is refused.
  const tooEarly = await alice.client.call("governanceservice.tally_votes", { proposal_id: proposal.sid });
  expect("error" in tooEarly && tooEarly.error.code).toBe(-32005);
  await vote(carol, proposal.sid, "abstain");
  const seen = await carol.client.callOk("governanceservice.get_proposal", { proposal_id: proposal.sid });
  expect(seen.votes.map((v) => [v.voter_id, v.vote_value, v.voting_power]).sort()).toEqual(
    [
      [alice.residentId, "for", 600],
      [bob.residentId, "against", 300],
      [carol.residentId, "abstain", 100],
    ].sort(),
  );
  const again = await bob.client.call("governanceservice.cast_vote", {
    proposal_id: proposal.sid,
    voter_id: bob.residentId,
    vote_value: "for",
    password: "correct horse battery staple 42",
  });
  expect("error" in again && again.error.data?.variant).toBe("AlreadyExists");

  step("tally once every unit has voted");
  // Tallying is a director's act (a founder acts as director): a shareholder is refused.
  const byShareholder = await bob.client.call("governanceservice.tally_votes", { proposal_id: proposal.sid });
  expect("error" in byShareholder && byShareholder.error.data?.variant).toBe("Forbidden");
  const tally = await alice.client.callOk("governanceservice.tally_votes", { proposal_id: proposal.sid });
  expect(tally).toMatchObject({
    status: "passed",
    votes_for: 600,
    votes_against: 300,
    votes_abstain: 100,
    total_voted: 1000,
    quorum_reached: true,
    passed: true,
  });

  step("execute the resolution");
  const resolution = await alice.client.callOk("governanceservice.execute_proposal", {
    proposal_id: proposal.sid,
    executor_id: alice.residentId,
    notes: "Lease signed next week.",
  });
  const year = t.clock.now().getUTCFullYear();
  expect(resolution).toMatchObject({
    resolution_number: `RES-${year}-0001`,
    proposal_id: proposal.sid,
    kind: "ordinary",
    votes_for: 600,
    votes_against: 300,
    votes_abstain: 100,
    executed_by: alice.residentId,
  });
  expect((await alice.client.callOk("governanceservice.get_proposal", { proposal_id: proposal.sid })).status).toBe(
    "executed",
  );

  step("members read the resolution, an outsider does not");
  for (const member of [alice, bob, carol]) {
    const list = await member.client.callOk("governanceservice.list_resolutions", { company_id: companyId });
    expect(list.items.map((r) => r.resolution_number)).toEqual([`RES-${year}-0001`]);
  }
  const outsider = await dan.client.call("governanceservice.list_resolutions", { company_id: companyId });
  expect("error" in outsider && outsider.error.code).toBe(-32003);
  const audience = await bob.client.callOk("documentaudienceservice.can_view", {
    subject_id: bob.residentId,
    document_ref: resolution.sid,
  });
  expect(audience).toMatchObject({ can_view: true, reason: "role_overlap", company_id: companyId });

  step("open the company's USD account and fund it");
  const source = await openCompanyAccount(alice, companyId, "USD");
  await fundAccount(zone, source, 1000, "USD");
  expect(await companyBalance(bob, companyId, source)).toEqual({ balance: 1000, available: 1000, pending_out: 0 });

  step("two of the three holders open a USD account");
  const accountOf = new Map<Resident, string>();
  for (const holder of [alice, bob]) accountOf.set(holder, await openResidentAccount(holder, "USD"));

  step("initiate a dividend of 100.01 USD: it waits for its vote");
  const dividend = await alice.client.callOk("shareholderservice.initiate_dividend", {
    company_id: companyId,
    total_amount: 100.01,
    currency: "USD",
    source_account_id: source,
    distribution_date: t.clock.now().toISOString(),
    initiated_by: alice.residentId,
  });
  expect(dividend).toMatchObject({ status: "proposed", requires_vote: true, approved_at: null });
  // Largest remainder: 60.006 / 30.003 / 10.001 -> 60.01 / 30.00 / 10.00, exactly the total.
  expect(dividend.payments.map((p) => [p.recipient_id, p.amount, p.ownership_percentage]).sort()).toEqual(
    [
      [alice.residentId, 60.01, 60],
      [bob.residentId, 30, 30],
      [carol.residentId, 10, 10],
    ].sort(),
  );
  const premature = await alice.client.call("shareholderservice.execute_dividend", { dividend_id: dividend.sid });
  expect("error" in premature && premature.error.code).toBe(-32005);
  expect((await companyBalance(alice, companyId, source)).balance).toBe(1000);

  step("vote the dividend and tally: the dividend is approved");
  const dividendProposal = dividend.proposal_id ?? "";
  expect(await carol.client.callOk("governanceservice.get_proposal", { proposal_id: dividendProposal })).toMatchObject({
    status: "active",
    category: "financial",
    kind: "ordinary",
  });
  await vote(alice, dividendProposal, "for");
  await vote(bob, dividendProposal, "for");
  await vote(carol, dividendProposal, "against");
  const dividendTally = await alice.client.callOk("governanceservice.tally_votes", { proposal_id: dividendProposal });
  expect(dividendTally).toMatchObject({ status: "passed", votes_for: 900, votes_against: 100 });
  const listed = await bob.client.callOk("shareholderservice.list_dividends", { company_id: companyId });
  expect(listed.items.find((d) => d.sid === dividend.sid)).toMatchObject({
    status: "approved",
    approved_at: dividendTally.tallied_at,
  });

  step("execute the dividend: holders with an account are paid, the dividend waits in processing");
  const partly = await alice.client.callOk("shareholderservice.execute_dividend", { dividend_id: dividend.sid });
  expect(partly.status).toBe("processing");
  expect(partly.payments.map((p) => [p.recipient_id, p.paid_at !== null]).sort()).toEqual(
    [
      [alice.residentId, true],
      [bob.residentId, true],
      [carol.residentId, false],
    ].sort(),
  );
  // The whole total left the source at once; Carol's share waits for her account.
  expect((await companyBalance(alice, companyId, source)).balance).toBe(899.99);
  expect(await residentBalance(alice, accountOf.get(alice) ?? "")).toBe(60.01);

  step("the third holder opens an account; executing again pays her and completes the dividend");
  accountOf.set(carol, await openResidentAccount(carol, "USD"));
  const paid = await alice.client.callOk("shareholderservice.execute_dividend", { dividend_id: dividend.sid });
  expect(paid.status).toBe("completed");
  for (const p of paid.payments) expect(p.paid_at).not.toBeNull();
  expect(await companyBalance(alice, companyId, source)).toEqual({
    balance: 899.99,
    available: 899.99,
    pending_out: 0,
  });
  expect(await residentBalance(alice, accountOf.get(alice) ?? "")).toBe(60.01);
  expect(await residentBalance(bob, accountOf.get(bob) ?? "")).toBe(30);
  expect(await residentBalance(carol, accountOf.get(carol) ?? "")).toBe(10);

  step("executing again pays nothing twice");
  const repeat = await alice.client.callOk("shareholderservice.execute_dividend", { dividend_id: dividend.sid });
  expect(repeat.status).toBe("completed");
  expect((await companyBalance(alice, companyId, source)).balance).toBe(899.99);
  expect(await residentBalance(bob, accountOf.get(bob) ?? "")).toBe(30);

  step("a second dividend voted down: its proposal is rejected, the dividend cancelled");
  // The director puts the minority's request for a larger payout to the vote; the majority holder votes it down.
  const second = await alice.client.callOk("shareholderservice.initiate_dividend", {
    company_id: companyId,
    total_amount: 500,
    currency: "USD",
    source_account_id: source,
    distribution_date: t.clock.now().toISOString(),
    initiated_by: alice.residentId,
  });
  expect(second.status).toBe("proposed");
  const secondProposal = second.proposal_id ?? "";
  await vote(alice, secondProposal, "against");
  await vote(bob, secondProposal, "for");
  await vote(carol, secondProposal, "for");
  const secondTally = await alice.client.callOk("governanceservice.tally_votes", { proposal_id: secondProposal });
  expect(secondTally).toMatchObject({ status: "rejected", votes_for: 400, votes_against: 600 });
  const cancelled = await alice.client.callOk("shareholderservice.list_dividends", { company_id: companyId });
  expect(cancelled.items.find((d) => d.sid === second.sid)).toMatchObject({ status: "cancelled", approved_at: null });
  const refused = await alice.client.call("shareholderservice.execute_dividend", { dividend_id: second.sid });
  expect("error" in refused && refused.error.code).toBe(-32005);
  expect((await companyBalance(alice, companyId, source)).balance).toBe(899.99);

  expect(done).toEqual([...STEPS]);
});
