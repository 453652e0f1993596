import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { formCompany, journeyCast, rolesOf, signInAgain } from "./support.ts";

// Seed 000, member due process in a cooperative: notice -> response -> review -> decision -> appeal -> ruling, then
// enforcement of the decision the ruling upheld. Each step is checked as its actors see it: the chain in
// list_actions, the deadlines, who may take which step, when enforcement is possible, and the member's roles closed
// at the end. Public API only (see support.ts).

const DAY = 24 * 3600;
const content = (text: string) => JSON.stringify({ text });

expectReached({
  GovernanceActionKind: ["notice", "response", "review", "decision", "appeal"],
  DecisionOutcome: ["dismiss", "remove", "warning", "probation", "suspension"],
  CompanyRoleKind: ["founder", "founding_member"],
});

const cast = journeyCast({
  carol: { first_name: "Carol", last_name: "Haddad" },
  dave: { first_name: "Dave", last_name: "Lindqvist" },
  erin: { first_name: "Erin", last_name: "Member" },
});

const STEPS = [
  "form the cooperative (three founding members)",
  "the founder issues a notice to a member",
  "the member responds within the window",
  "the founder conducts the review",
  "the decision: removal, by the governance board",
  "enforcement waits for the appeal window",
  "the member appeals",
  "the ruling: appeal dismissed, by the internal appeals committee",
  "the upheld removal is enforced: the member's roles close",
  "a second enforcement changes nothing",
  "lesser outcomes: a warning, a probation and a suspension, none of which removes the member",
] as const;

test(`discipline chain with an appeal (${STEPS.length} steps)`, async () => {
  const { zone, carol, dave, erin } = cast;
  const { t } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the cooperative (three founding members)");
  const coop = await formCompany(
    zone,
    { resident: carol, units: 0 },
    [
      { resident: dave, units: 0 },
      { resident: erin, units: 0 },
    ],
    { entity_type: "cooperative" },
  );
  const companyId = coop.companyId;
  expect(await rolesOf(erin.client, companyId)).toEqual({
    [carol.name]: ["founder", "founding_member"],
    [dave.name]: ["founding_member"],
    [erin.name]: ["founding_member"],
  });

  step("the founder issues a notice to a member");
  // A member without the director role may not open a case.
  const byMember = await erin.client.call("governanceservice.issue_notice", {
    company_id: companyId,
    subject_resident_id: dave.residentId,
    content: content("Missed three assemblies."),
    created_by: erin.residentId,
  });
  expect("error" in byMember && byMember.error.code).toBe(-32002);
  const notice = await carol.client.callOk("governanceservice.issue_notice", {
    company_id: companyId,
    subject_resident_id: dave.residentId,
    content: content("Missed three assemblies."),
    created_by: carol.residentId,
  });
  const issuedAt = t.clock.now().getTime();
  expect(notice).toMatchObject({ kind: "notice", subject_resident_id: dave.residentId, parent_action_sid: null });
  expect(Date.parse(notice.due_by)).toBe(issuedAt + 14 * DAY * 1000);
  // The member sees his own case; another member does not see it.
  const davesView = await dave.client.callOk("governanceservice.list_actions", { company_id: companyId });
  expect(davesView.items.map((a) => a.sid)).toEqual([notice.sid]);
  const erinsView = await erin.client.callOk("governanceservice.list_actions", { company_id: companyId });
  expect(erinsView.items).toEqual([]);

  step("the member responds within the window");
  t.clock.advance(3 * DAY);
  await signInAgain(zone, carol, dave, erin);
  // Only the subject answers the notice.
  const notHis = await carol.client.call("governanceservice.submit_response", {
    parent_action_id: notice.sid,
    content: content("On his behalf."),
    created_by: carol.residentId,
  });
  expect("error" in notHis && notHis.error.code).toBe(-32002);
  const response = await dave.client.callOk("governanceservice.submit_response", {
    parent_action_id: notice.sid,
    content: content("I was travelling; I will attend from now on."),
    created_by: dave.residentId,
  });
  expect(response).toMatchObject({ kind: "response", parent_action_sid: notice.sid });

  step("the founder conducts the review");
  const bySubject = await dave.client.call("governanceservice.conduct_review", {
    parent_action_id: response.sid,
    content: content("Self review."),
    created_by: dave.residentId,
  });
  expect("error" in bySubject && bySubject.error.code).toBe(-32002);
  const review = await carol.client.callOk("governanceservice.conduct_review", {
    parent_action_id: response.sid,
    content: content("Attendance records checked: five absences, not three."),
    created_by: carol.residentId,
  });
  expect(review).toMatchObject({ kind: "review", parent_action_sid: response.sid });

  step("the decision: removal, by the governance board");
  // A body outside the deployment's decision executors is refused.
  const wrongBody = await carol.client.call("governanceservice.issue_decision", {
    parent_action_id: review.sid,
    outcome: "remove",
    decided_by_role: "internal_appeals_committee",
    content: content("Removal."),
    created_by: carol.residentId,
  });
  expect("error" in wrongBody && wrongBody.error.data?.variant).toBe("ExecutorNotAllowed");
  const decision = await carol.client.callOk("governanceservice.issue_decision", {
    parent_action_id: review.sid,
    outcome: "remove",
    decided_by_role: "governance_board",
    content: content("Removal from the cooperative."),
    created_by: carol.residentId,
  });
  expect(decision).toMatchObject({ kind: "decision", outcome: "remove", decided_by_role: "governance_board" });
  expect(decision.decided_at).toBe(t.clock.now().toISOString());

  step("enforcement waits for the appeal window");
  const tooSoon = await carol.client.call("governanceservice.enforce_decision", {
    decision_id: decision.sid,
    enforced_by: carol.residentId,
  });
  expect("error" in tooSoon && tooSoon.error.code).toBe(-32005);
  expect((await rolesOf(carol.client, companyId))[dave.name]).toEqual(["founding_member"]);

  step("the member appeals");
  t.clock.advance(2 * DAY);
  await signInAgain(zone, carol, dave, erin);
  const appeal = await dave.client.callOk("governanceservice.file_appeal", {
    parent_action_id: decision.sid,
    content: content("The absences were excused."),
    created_by: dave.residentId,
  });
  expect(appeal).toMatchObject({ kind: "appeal", parent_action_sid: decision.sid });
  const pending = await carol.client.call("governanceservice.enforce_decision", {
    decision_id: decision.sid,
    enforced_by: carol.residentId,
  });
  expect("error" in pending && pending.error.code).toBe(-32005);

  step("the ruling: appeal dismissed, by the internal appeals committee");
  const ruling = await carol.client.callOk("governanceservice.issue_decision", {
    parent_action_id: appeal.sid,
    outcome: "dismiss",
    decided_by_role: "internal_appeals_committee",
    content: content("Appeal dismissed: no excuse was filed at the time."),
    created_by: carol.residentId,
  });
  expect(ruling).toMatchObject({ kind: "decision", parent_action_sid: appeal.sid, outcome: "dismiss" });
  // The whole chain, as the subject sees it: six steps, each answering the one before.
  const chain = await dave.client.callOk("governanceservice.list_actions", {
    company_id: companyId,
    subject_resident_id: dave.residentId,
  });
  const byParent = new Map(chain.items.map((a) => [a.parent_action_sid, a]));
  const walked: string[] = [];
  for (let at = byParent.get(null); at; at = byParent.get(at.sid)) walked.push(at.kind);
  expect(walked).toEqual(["notice", "response", "review", "decision", "appeal", "decision"]);

  step("the upheld removal is enforced: the member's roles close");
  const enforced = await carol.client.callOk("governanceservice.enforce_decision", {
    decision_id: decision.sid,
    enforced_by: carol.residentId,
  });
  expect(enforced).toMatchObject({
    decision_id: decision.sid,
    subject_resident_id: dave.residentId,
    already_enforced: false,
  });
  expect(enforced.closed_role_ids).toHaveLength(1);
  expect(await rolesOf(carol.client, companyId)).toEqual({
    [carol.name]: ["founder", "founding_member"],
    [erin.name]: ["founding_member"],
  });
  // Removed, Dave no longer reads the cooperative's chain.
  const afterRemoval = await dave.client.call("governanceservice.list_actions", { company_id: companyId });
  expect("error" in afterRemoval && afterRemoval.error.code).toBe(-32003);

  step("a second enforcement changes nothing");
  const repeat = await carol.client.callOk("governanceservice.enforce_decision", {
    decision_id: decision.sid,
    enforced_by: carol.residentId,
  });
  expect(repeat).toMatchObject({ already_enforced: true, enforced_at: enforced.enforced_at, closed_role_ids: [] });

  step("lesser outcomes: a warning, a probation and a suspension, none of which removes the member");
  for (const outcome of ["warning", "probation", "suspension"] as const) {
    await signInAgain(zone, carol, erin);
    const opened = await carol.client.callOk("governanceservice.issue_notice", {
      company_id: companyId,
      subject_resident_id: erin.residentId,
      content: content(`Case ending in ${outcome}.`),
      created_by: carol.residentId,
    });
    const answered = await erin.client.callOk("governanceservice.submit_response", {
      parent_action_id: opened.sid,
      content: content("My answer."),
      created_by: erin.residentId,
    });
    const reviewed = await carol.client.callOk("governanceservice.conduct_review", {
      parent_action_id: answered.sid,
      content: content("Reviewed."),
      created_by: carol.residentId,
    });
    const decided = await carol.client.callOk("governanceservice.issue_decision", {
      parent_action_id: reviewed.sid,
      outcome,
      decided_by_role: "governance_board",
      content: content(`Decision: ${outcome}.`),
      created_by: carol.residentId,
    });
    expect(decided).toMatchObject({ kind: "decision", outcome, subject_resident_id: erin.residentId });
    // Past the appeal window with no appeal, it still removes nobody.
    t.clock.advance(31 * DAY);
    await signInAgain(zone, carol, erin);
    const enforce = await carol.client.call("governanceservice.enforce_decision", {
      decision_id: decided.sid,
      enforced_by: carol.residentId,
    });
    expect(enforce).toMatchObject({ error: { data: { variant: "NotEnforceable", outcome } } });
    expect((await rolesOf(carol.client, companyId))[erin.name]).toEqual(["founding_member"]);
  }
  const erinsCases = await erin.client.callOk("governanceservice.list_actions", {
    company_id: companyId,
    subject_resident_id: erin.residentId,
  });
  expect(
    erinsCases.items
      .filter((a) => a.kind === "decision")
      .map((a) => a.outcome)
      .sort(),
  ).toEqual(["probation", "suspension", "warning"]);

  expect(done).toEqual([...STEPS]);
});
