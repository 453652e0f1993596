import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { emailLink, formCompany, journeyCast, type Resident, rolesOf, vote } from "./support.ts";

// Seed 000, a cooperative with a platinum upgrade (issue 30 item 3): a cooperative formed through a draft, a new
// member invited by email (membership, not units: founding_member, counted by cooperative voting), a member's
// platinum upgrade proposed as a special resolution, voted, tallied, granted by a director (the resolution executed
// and platinum_member opened), and the voting power that follows. Public API only (see support.ts); each step
// checks what its actors see.

const cast = journeyCast({
  ana: { first_name: "Ana", last_name: "Founder" },
  ben: { first_name: "Ben", last_name: "Member" },
  cai: { first_name: "Cai", last_name: "Member" },
  dee: { first_name: "Dee", last_name: "Newcomer" },
});

expectReached({
  ProposalStatus: ["active", "passed", "executed"],
  ShareholderInviteStatus: ["pending", "accepted"],
  CompanyRoleKind: ["founder", "founding_member", "platinum_member"],
  VoteValue: ["for", "against"],
});

const STEPS = [
  "form the cooperative (three founding members)",
  "a director invites a newcomer to join",
  "the newcomer accepts by the emailed link: a founding member with one vote",
  "a member proposes another member's platinum upgrade",
  "the members vote: three for, one against",
  "the director tallies: passed with 75 percent",
  "the director grants the platinum membership",
  "the upgraded member's voting power is 2; the next vote counts 5",
  "every member reads the resolution; a second grant is refused",
] as const;

test(`cooperative with a platinum upgrade (${STEPS.length} steps)`, async () => {
  const { zone, ana, ben, cai, dee } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);
  const powerOf = async (viewer: Resident, member: Resident) =>
    (
      await viewer.client.callOk("governanceservice.get_voting_power", {
        company_id: coopId,
        resident_id: member.residentId,
      })
    ).voting_power;

  step("form the cooperative (three founding members)");
  const coop = await formCompany(
    zone,
    { resident: ana, units: 0 },
    [
      { resident: ben, units: 0 },
      { resident: cai, units: 0 },
    ],
    { entity_type: "cooperative" },
  );
  const coopId = coop.companyId;
  expect(coopId).toMatch(/-P\d{6}$/);
  const company = await ben.client.callOk("companyservice.get", { company_id: coopId });
  expect(company).toMatchObject({ voting_model: "cooperative", status: "active" });
  expect(await rolesOf(ben.client, coopId)).toEqual({
    [ana.name]: ["founder", "founding_member"],
    [ben.name]: ["founding_member"],
    [cai.name]: ["founding_member"],
  });
  expect(await powerOf(ben, ben)).toBe(1);

  step("a director invites a newcomer to join");
  const invite = await ana.client.callOk("shareholderservice.invite_shareholder", {
    company_id: coopId,
    inviter_id: ana.residentId,
    invitee_email: dee.email,
    proposed_units: 0,
    message: "Join our cooperative.",
  });
  expect(invite).toMatchObject({ status: "pending", proposed_units: 0, invitee_email: dee.email });
  const pending = await ana.client.callOk("shareholderservice.list_invites", { company_id: coopId });
  expect(pending.items.map((i) => i.sid)).toEqual([invite.sid]);

  step("the newcomer accepts by the emailed link: a founding member with one vote");
  const link = new URL(await emailLink(zone, dee.email, "shareholder_invite"));
  expect(link.pathname).toBe("/shareholder-invite");
  const accepted = await dee.client.callOk("shareholderservice.accept_invite", {
    invite_token: link.searchParams.get("token") ?? "",
    resident_id: dee.residentId,
  });
  expect(accepted).toMatchObject({ status: "accepted", company_id: coopId, units: 0 });
  expect((await rolesOf(dee.client, coopId))[dee.name]).toEqual(["founding_member"]);
  expect(await powerOf(dee, dee)).toBe(1);
  expect((await ana.client.callOk("shareholderservice.list_invites", { company_id: coopId })).items).toEqual([]);

  step("a member proposes another member's platinum upgrade");
  const proposal = await cai.client.callOk("governanceservice.propose_platinum_upgrade", {
    company_id: coopId,
    resident_id: ben.residentId,
    voting_days: 7,
  });
  expect(proposal).toMatchObject({
    status: "active",
    kind: "special",
    proposer_id: cai.residentId,
    platinum_candidate_id: ben.residentId,
    total_issued_power_snapshot: 4,
    passing_threshold: 75,
  });
  const listed = await dee.client.callOk("governanceservice.list_proposals", { company_id: coopId });
  expect(listed.items.map((p) => p.sid)).toEqual([proposal.sid]);

  step("the members vote: three for, one against");
  for (const member of [ana, ben, cai]) {
    expect(await vote(member, proposal.sid, "for")).toMatchObject({ voting_power: 1, vote_value: "for" });
  }
  expect(await vote(dee, proposal.sid, "against")).toMatchObject({ voting_power: 1, vote_value: "against" });

  step("the director tallies: passed with 75 percent");
  const tally = await ana.client.callOk("governanceservice.tally_votes", { proposal_id: proposal.sid });
  expect(tally).toMatchObject({
    status: "passed",
    votes_for: 3,
    votes_against: 1,
    total_voted: 4,
    for_percentage: 75,
    quorum_reached: true,
  });

  step("the director grants the platinum membership");
  // A member who is no director may not grant it.
  const byMember = await cai.client.call("governanceservice.grant_platinum_membership", {
    proposal_id: proposal.sid,
    granted_by: cai.residentId,
  });
  expect("error" in byMember && byMember.error.data?.variant).toBe("Forbidden");
  const granted = await ana.client.callOk("governanceservice.grant_platinum_membership", {
    proposal_id: proposal.sid,
    granted_by: ana.residentId,
  });
  expect(granted).toMatchObject({ resident_id: ben.residentId, company_id: coopId, voting_power: 2 });
  expect(await rolesOf(ben.client, coopId)).toEqual({
    [ana.name]: ["founder", "founding_member"],
    [ben.name]: ["founding_member", "platinum_member"],
    [cai.name]: ["founding_member"],
    [dee.name]: ["founding_member"],
  });
  const bensRoles = await ben.client.callOk("companyroleservice.list_by_resident", {
    subject_id: ben.residentId,
    as_of_epoch: 0,
  });
  expect(bensRoles.items.filter((r) => r.company_id === coopId).map((r) => r.role)).toContain("platinum_member");

  step("the upgraded member's voting power is 2; the next vote counts 5");
  expect(await powerOf(ben, ben)).toBe(2);
  expect(await powerOf(ben, cai)).toBe(1);
  const next = await dee.client.callOk("governanceservice.create_proposal", {
    company_id: coopId,
    title: "Buy a shared delivery van",
    description: "Up to 12,000 USD from the reserve.",
    category: "financial",
    kind: "ordinary",
    voting_days: 7,
    allow_abstention: false,
  });
  expect(next).toMatchObject({ total_issued_power_snapshot: 5, platinum_candidate_id: null });
  expect(await vote(ben, next.sid, "for")).toMatchObject({ voting_power: 2 });

  step("every member reads the resolution; a second grant is refused");
  const executed = await dee.client.callOk("governanceservice.get_proposal", { proposal_id: proposal.sid });
  expect(executed).toMatchObject({ status: "executed", resolution_id: granted.resolution_id });
  for (const member of [ana, ben, cai, dee]) {
    const resolutions = await member.client.callOk("governanceservice.list_resolutions", { company_id: coopId });
    expect(resolutions.items.map((r) => r.resolution_number)).toEqual([granted.resolution_number]);
  }
  const again = await ana.client.call("governanceservice.grant_platinum_membership", {
    proposal_id: proposal.sid,
    granted_by: ana.residentId,
  });
  expect("error" in again && again.error.data?.variant).toBe("InvalidState");

  expect(done).toEqual([...STEPS]);
});
