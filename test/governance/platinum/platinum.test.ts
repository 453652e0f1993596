import { describe, expect, test } from "vitest";
import { emailLink, formCompany, journeyCast, type Resident, rolesOf, vote } from "../../journeys/support.ts";
import type { Client } from "../../support/app.ts";

// Cooperative membership and platinum upgrades (issue 30, docs/decisions.md "Corporate holders and cooperative
// membership (issue 30)"), through the public API only: an invitation into a cooperative opens founding_member (the
// role cooperative voting counts), and platinum_member is granted only by an executed, passed upgrade resolution.
// The tests of this file run in order on one cooperative.

const cast = journeyCast({
  carol: { first_name: "Carol", last_name: "Platinum" },
  dave: { first_name: "Dave", last_name: "Platinum" },
  erin: { first_name: "Erin", last_name: "Platinum" },
  fay: { first_name: "Fay", last_name: "Platinum" },
});

const gov = (variant: string) => ({ type: "GovernanceError", variant });
let coop = "";

async function power(client: Client, resident: Resident): Promise<number> {
  const r = await client.callOk("governanceservice.get_voting_power", {
    company_id: coop,
    resident_id: resident.residentId,
  });
  return r.voting_power;
}

/** The token of the newest shareholder-invite email to `to`, from its link (`/shareholder-invite?token=`). */
async function inviteToken(to: string): Promise<string> {
  const link = new URL(await emailLink(cast.zone, to, "shareholder_invite"));
  return link.searchParams.get("token") ?? "";
}

/** The error of a refused call (undefined when it succeeded). */
const errorOf = (r: object): unknown => ("error" in r ? r.error : undefined);

describe("an invitation into a cooperative", () => {
  test("offers membership, not units: proposed_units other than 0 is InvalidInput", async () => {
    const { zone, carol, dave, erin } = cast;
    const formed = await formCompany(
      zone,
      { resident: carol, units: 0 },
      [
        { resident: dave, units: 0 },
        { resident: erin, units: 0 },
      ],
      { entity_type: "cooperative" },
    );
    coop = formed.companyId;
    const withUnits = await carol.client.call("shareholderservice.invite_shareholder", {
      company_id: coop,
      inviter_id: carol.residentId,
      invitee_email: cast.fay.email,
      proposed_units: 5,
    });
    expect(errorOf(withUnits)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const pending = await carol.client.callOk("shareholderservice.list_invites", { company_id: coop });
    expect(pending.items).toEqual([]);
  });

  test("accepted, it opens founding_member (counted by cooperative voting) with a 0-unit cap-table row", async () => {
    const { carol, fay } = cast;
    const invited = await carol.client.callOk("shareholderservice.invite_shareholder", {
      company_id: coop,
      inviter_id: carol.residentId,
      invitee_email: fay.email,
      proposed_units: 0,
    });
    expect(invited).toMatchObject({ status: "pending", proposed_units: 0 });
    const accepted = await fay.client.callOk("shareholderservice.accept_invite", {
      invite_token: await inviteToken(fay.email),
      resident_id: fay.residentId,
    });
    expect(accepted).toMatchObject({ status: "accepted", units: 0, resident_id: fay.residentId });
    expect((await rolesOf(fay.client, coop))[fay.name]).toEqual(["founding_member"]);
    expect(await power(fay.client, fay)).toBe(1);
    const company = await carol.client.callOk("companyservice.get", { company_id: coop });
    expect(company.shareholders.find((s) => s.resident_id === fay.residentId)).toMatchObject({
      role: "founding_member",
      units: 0,
    });
  });
});

describe("a platinum upgrade", () => {
  let proposalId = "";

  test("is refused for a resident who is not a member and in a company that is not a cooperative", async () => {
    const { zone, carol, dave } = cast;
    const stranger = await carol.client.call("governanceservice.propose_platinum_upgrade", {
      company_id: coop,
      resident_id: "FZ-2026-RA999999",
      voting_days: 7,
    });
    expect(errorOf(stranger)).toMatchObject({ code: -32005, data: { ...gov("InvalidState"), reason: "not_a_member" } });
    const company = await formCompany(zone, { resident: dave, units: 10 }, []);
    const notCoop = await dave.client.call("governanceservice.propose_platinum_upgrade", {
      company_id: company.companyId,
      resident_id: dave.residentId,
      voting_days: 7,
    });
    expect(errorOf(notCoop)).toMatchObject({ data: { ...gov("InvalidState"), reason: "not_a_cooperative" } });
    const listed = await carol.client.callOk("governanceservice.list_proposals", { company_id: coop });
    expect(listed.items).toEqual([]);
  });

  test("opens a special proposal naming the member; it cannot be granted before it passed", async () => {
    const { zone, carol, erin } = cast;
    const proposal = await erin.client.callOk("governanceservice.propose_platinum_upgrade", {
      company_id: coop,
      resident_id: cast.dave.residentId,
      voting_days: 7,
    });
    proposalId = proposal.sid;
    expect(proposal).toMatchObject({
      kind: "special",
      category: "governance",
      status: "active",
      proposer_id: erin.residentId,
      platinum_candidate_id: cast.dave.residentId,
      passing_threshold: zone.t.config.proposals.thresholds.special.passing,
      total_issued_power_snapshot: 4,
    });
    const early = await carol.client.call("governanceservice.grant_platinum_membership", {
      proposal_id: proposalId,
      granted_by: carol.residentId,
    });
    expect(errorOf(early)).toMatchObject({ data: { ...gov("InvalidState"), status: "active" } });
  });

  test("passes with 75 percent for; execute_proposal refuses it; only a director grants it", async () => {
    const { carol, dave, erin, fay } = cast;
    await vote(carol, proposalId, "for");
    await vote(dave, proposalId, "for");
    await vote(erin, proposalId, "for");
    await vote(fay, proposalId, "against");
    const tallied = await carol.client.callOk("governanceservice.tally_votes", { proposal_id: proposalId });
    expect(tallied).toMatchObject({ status: "passed", for_percentage: 75, passed: true });
    const executed = await carol.client.call("governanceservice.execute_proposal", {
      proposal_id: proposalId,
      executor_id: carol.residentId,
    });
    expect(errorOf(executed)).toMatchObject({ data: { ...gov("InvalidState"), reason: "platinum_upgrade" } });
    const byMember = await dave.client.call("governanceservice.grant_platinum_membership", {
      proposal_id: proposalId,
      granted_by: dave.residentId,
    });
    expect(errorOf(byMember)).toMatchObject({ code: -32002, data: gov("Forbidden") });
    expect((await rolesOf(carol.client, coop))[dave.name]).toEqual(["founding_member"]);
    expect(await power(dave.client, dave)).toBe(1);
  });

  test("granted: the proposal executed as a resolution, platinum_member opened, the member's power 2", async () => {
    const { zone, carol, dave } = cast;
    const granted = await carol.client.callOk("governanceservice.grant_platinum_membership", {
      proposal_id: proposalId,
      granted_by: carol.residentId,
      notes: "Upgrade approved by the assembly.",
    });
    expect(granted).toMatchObject({
      proposal_id: proposalId,
      company_id: coop,
      resident_id: dave.residentId,
      granted_at: zone.t.clock.now().toISOString(),
      voting_power: 2,
    });
    expect(granted.resolution_number).toMatch(/^RES-\d{4}-0001$/);
    expect((await rolesOf(dave.client, coop))[dave.name]).toEqual(["founding_member", "platinum_member"]);
    expect(await power(dave.client, dave)).toBe(2);
    const proposal = await dave.client.callOk("governanceservice.get_proposal", { proposal_id: proposalId });
    expect(proposal).toMatchObject({ status: "executed", resolution_id: granted.resolution_id });
    const resolutions = await dave.client.callOk("governanceservice.list_resolutions", { company_id: coop });
    expect(resolutions.items.map((r) => r.sid)).toEqual([granted.resolution_id]);
  });

  test("is granted once; a platinum member cannot be proposed again; a plain proposal grants nothing", async () => {
    const { carol, dave } = cast;
    const again = await carol.client.call("governanceservice.grant_platinum_membership", {
      proposal_id: proposalId,
      granted_by: carol.residentId,
    });
    expect(errorOf(again)).toMatchObject({ data: { ...gov("InvalidState"), status: "executed" } });
    const twice = await carol.client.call("governanceservice.propose_platinum_upgrade", {
      company_id: coop,
      resident_id: dave.residentId,
      voting_days: 7,
    });
    expect(errorOf(twice)).toMatchObject({ code: -32005, data: gov("AlreadyExists") });
    const plain = await carol.client.callOk("governanceservice.create_proposal", {
      company_id: coop,
      title: "Annual assembly date",
      description: "Hold it in June.",
      category: "operational",
      kind: "ordinary",
      voting_days: 7,
      allow_abstention: true,
    });
    // The next proposal's snapshot counts the platinum role: four members, five units.
    expect(plain).toMatchObject({ total_issued_power_snapshot: 5, platinum_candidate_id: null });
    const notUpgrade = await carol.client.call("governanceservice.grant_platinum_membership", {
      proposal_id: plain.sid,
      granted_by: carol.residentId,
    });
    expect(errorOf(notUpgrade)).toMatchObject({ data: { ...gov("InvalidState"), reason: "not_an_upgrade" } });
    expect((await rolesOf(carol.client, coop))[dave.name]).toEqual(["founding_member", "platinum_member"]);
  });
});
