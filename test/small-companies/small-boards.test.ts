import { describe, expect, test } from "vitest";
import { type FormedCompany, formCompany, journeyCast, type Resident, rolesOf, vote } from "../journeys/support.ts";
import { PASSWORD } from "../support/app.ts";

/*
 * Issue 30, "Rules that lock small companies out", walked through the public API (companies formed through drafts,
 * people onboarded as residents): the board is the current directors and founders, one definition
 * (src/domain/directors.ts `boardMembers`), so a founder-run company holds board resolutions; and the expense
 * four-eyes rule lets the submitter decide its own expense only when it is the company's whole board, recorded as
 * `self_decided` (docs/decisions.md "Small companies and smaller slips (issue 30)").
 */

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Solo", spare: 200 },
  bob: { first_name: "Bob", last_name: "Holder" },
  carol: { first_name: "Carol", last_name: "Director" },
  dina: { first_name: "Dina", last_name: "Founder", spare: 200 },
});

let solo: FormedCompany | null = null;
/** Alice's single_fzc formed through a draft with herself alone on the cap table: her founder role is the board. */
async function soloCompany(): Promise<FormedCompany> {
  solo ??= await formCompany(cast.zone, { resident: cast.alice, units: 1 }, [], {
    company_type: "single_fzc",
    name: "Alice Solo FZC",
  });
  return solo;
}

let pair: FormedCompany | null = null;
/** Dina's startup: Dina founder and shareholder, Bob a shareholder, Carol a director only. Board: Dina, Carol. */
async function pairCompany(): Promise<FormedCompany> {
  pair ??= await formCompany(
    cast.zone,
    { resident: cast.dina, units: 70 },
    [
      { resident: cast.bob, units: 30 },
      { resident: cast.carol, units: 0, role: "director" },
    ],
    { name: "Dina and Carol FZC" },
  );
  return pair;
}

function boardProposal(who: Resident, companyId: string) {
  return who.client.call("governanceservice.create_proposal", {
    company_id: companyId,
    title: "Open a bank account",
    description: "Open a USD account with Harbour Bank.",
    category: "financial",
    kind: "board",
    voting_days: 7,
    allow_abstention: false,
  });
}

describe("the board is the current directors and founders", () => {
  test("a founder-run company formed through a draft holds a board resolution: proposal, vote, tally, execution", async () => {
    const { alice } = cast;
    const company = await soloCompany();
    expect(await rolesOf(alice.client, company.companyId)).toEqual({ [alice.name]: ["founder", "shareholder"] });
    const created = await boardProposal(alice, company.companyId);
    if ("error" in created) throw new Error(`board proposal refused: ${JSON.stringify(created.error)}`);
    expect(created.result).toMatchObject({
      kind: "board",
      proposer_id: alice.residentId,
      total_issued_power_snapshot: 1,
    });
    const cast1 = await vote(alice, created.result.sid, "for");
    expect(cast1.voting_power).toBe(1);
    const tally = await alice.client.callOk("governanceservice.tally_votes", { proposal_id: created.result.sid });
    expect(tally.status).toBe("passed");
    const resolution = await alice.client.callOk("governanceservice.execute_proposal", {
      proposal_id: created.result.sid,
      executor_id: alice.residentId,
    });
    expect(resolution).toMatchObject({ kind: "board", executed_by: alice.residentId, votes_for: 1 });
  });

  test("directors and founders each count once; a shareholder neither proposes nor votes on the board", async () => {
    const { dina, bob, carol } = cast;
    const company = await pairCompany();
    expect(await rolesOf(bob.client, company.companyId)).toEqual({
      [dina.name]: ["founder", "shareholder"],
      [bob.name]: ["shareholder"],
      [carol.name]: ["director"],
    });
    const refused = await boardProposal(bob, company.companyId);
    expect("error" in refused && refused.error).toMatchObject({
      code: -32002,
      data: { type: "GovernanceError", variant: "Forbidden" },
    });
    const proposal = await carol.client.callOk("governanceservice.create_proposal", {
      company_id: company.companyId,
      title: "Hire an accountant",
      description: "Part-time, from January.",
      category: "personnel",
      kind: "board",
      voting_days: 7,
      allow_abstention: false,
    });
    expect(proposal.total_issued_power_snapshot).toBe(2);
    const shareholderVote = await bob.client.call("governanceservice.cast_vote", {
      proposal_id: proposal.sid,
      voter_id: bob.residentId,
      vote_value: "for",
      password: PASSWORD,
    });
    expect("error" in shareholderVote && shareholderVote.error.data).toMatchObject({ variant: "Forbidden" });
    expect((await vote(dina, proposal.sid, "for")).voting_power).toBe(1);
    expect((await vote(carol, proposal.sid, "against")).voting_power).toBe(1);
    const tally = await carol.client.callOk("governanceservice.tally_votes", { proposal_id: proposal.sid });
    // one for, one against: not more than 50 percent
    expect(tally).toMatchObject({ status: "rejected", votes_for: 1, votes_against: 1 });
  });
});

const EXPENSE = {
  receipt_number: "R-100",
  vendor_name: "Harbour Stationers",
  description: "letterheads",
  amount: 40,
  currency: "USD",
  category: "office",
  expense_date: "2026-11-01T00:00:00.000Z",
};

async function submitted(who: Resident, companyId: string, receipt: string) {
  const e = await who.client.callOk("expenseservice.create", {
    fzc_id: companyId,
    data: { ...EXPENSE, receipt_number: receipt },
  });
  return who.client.callOk("expenseservice.submit", { expense_id: e.sid });
}

describe("expenses: four eyes, unless one person is the whole board", () => {
  test("the only founder approves and rejects her own submissions, recorded as self_decided", async () => {
    const { alice } = cast;
    const company = await soloCompany();
    const first = await submitted(alice, company.companyId, "R-101");
    const approved = await alice.client.callOk("expenseservice.approve", {
      expense_id: first.sid,
      approved_by: alice.residentId,
    });
    expect(approved).toMatchObject({ status: "approved", approved_by: alice.residentId, self_decided: true });
    const second = await submitted(alice, company.companyId, "R-102");
    const rejected = await alice.client.callOk("expenseservice.reject", {
      expense_id: second.sid,
      rejected_by: alice.residentId,
      reason: "duplicate receipt",
    });
    expect(rejected).toMatchObject({ status: "rejected", rejected_by: alice.residentId, self_decided: true });
    const read = await alice.client.callOk("expenseservice.get", { expense_id: first.sid });
    expect(read.self_decided).toBe(true);
  });

  test("with a second board member the submitter is refused (nothing written) and the other one decides", async () => {
    const { dina, carol } = cast;
    const company = await pairCompany();
    const e = await submitted(dina, company.companyId, "R-201");
    for (const call of [
      () => dina.client.call("expenseservice.approve", { expense_id: e.sid, approved_by: dina.residentId }),
      () =>
        dina.client.call("expenseservice.reject", { expense_id: e.sid, rejected_by: dina.residentId, reason: "no" }),
    ]) {
      const r = await call();
      expect("error" in r && r.error).toMatchObject({
        code: -32006,
        data: { type: "InvoiceError", variant: "SelfApproval" },
      });
    }
    expect(await dina.client.callOk("expenseservice.get", { expense_id: e.sid })).toMatchObject({
      status: "submitted",
      approved_by: null,
      self_decided: false,
    });
    const approved = await carol.client.callOk("expenseservice.approve", {
      expense_id: e.sid,
      approved_by: carol.residentId,
    });
    expect(approved).toMatchObject({ status: "approved", approved_by: carol.residentId, self_decided: false });
  });

  test("once the other director is removed, the founder left alone decides her own expense", async () => {
    const { dina, carol } = cast;
    const company = await pairCompany();
    const e = await submitted(dina, company.companyId, "R-202");
    await dina.client.callOk("governanceservice.remove_director", {
      company_id: company.companyId,
      resident_id: carol.residentId,
      removed_by: dina.residentId,
    });
    const approved = await dina.client.callOk("expenseservice.approve", {
      expense_id: e.sid,
      approved_by: dina.residentId,
    });
    expect(approved).toMatchObject({ status: "approved", self_decided: true });
  });
});
