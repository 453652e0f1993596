import { expect, test } from "vitest";
import { balanceOf, postVerdict, verdict } from "../payments/support.ts";
import { member, startFinanceApp } from "../support/entities.ts";
import { count, refusedNoWrite, sql } from "../support/helpers.ts";
import { COOP_DATA, coopDraft, draftTables, invitationOf, people } from "./support.ts";

/**
 * Done means (issue 16): a cooperative formed end to end over HTTP: a draft with three invitees, one declines, the
 * creator reopens and edits, all sign the new version (the old version's invitation is refused VersionMismatch), the
 * creator's wallet is funded through a sandbox payment, pay_and_activate, and the cooperative is active with its roles.
 */
test("a cooperative formation from draft to active cooperative, through a decline, a reopen and a sandbox payment", async () => {
  const t = await startFinanceApp({ paymentSweepIntervalS: 0 });
  const founder = await member(t);
  const [ann, bob, cyd] = await people(t, 3);
  if (!ann || !bob || !cyd) throw new Error("three invitees expected");

  // Draft and finalize: three invitations by email (outbox) and inbox, expiring at the signature deadline.
  const draft = await coopDraft(founder, [ann, bob, cyd]);
  const finalized = await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: draft.sid });
  expect(finalized).toMatchObject({
    status: "pending_signatures",
    total_required_signatures: 3,
    completed_signatures: 0,
  });
  for (const p of [ann, bob, cyd]) {
    expect(await count(t, "email_outbox", "to_email = ? and template = 'entity_invitation'", [p.client.email])).toBe(1);
  }
  const annV1 = await invitationOf(ann, draft.sid);
  const bobV1 = await invitationOf(bob, draft.sid);
  const annInvite = await ann.client.callOk("entitydraftservice.get_my_invitations", {});
  expect(annInvite.items[0]).toMatchObject({
    invitee_dr_id: ann.resident,
    inviter_dr_id: founder.resident,
    document_version: 1,
    status: "pending",
    expires_at: draft.signature_deadline,
  });
  expect(JSON.stringify(annInvite)).not.toContain(founder.client.userId);

  // Ann signs version 1, Bob declines with a reason: the creator is told in the inbox and the draft cannot complete.
  await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: annV1 });
  await bob.client.callOk("entitydraftservice.decline_invitation", { invitation_id: bobV1, reason: "Wrong fee" });
  const told = await sql(t, "select title, body from user_message where user_id = ? and title like '%declined%'", [
    founder.client.userId,
  ]);
  expect(told).toHaveLength(1);
  expect(told[0].body).toContain("Wrong fee");
  const blocked = await founder.client.callOk("entitydraftservice.check_completion", { draft_id: draft.sid });
  expect(blocked).toMatchObject({ status: "pending_signatures", complete: false, next_step: "await_signatures" });

  // The creator reopens (Cyd's pending invitation is voided), edits the fee, and finalizes version 2.
  t.clock.advance(60);
  const reopened = await founder.client.callOk("entitydraftservice.reopen_draft", { draft_id: draft.sid });
  expect(reopened).toMatchObject({ status: "draft", completed_signatures: 0, finalized_at: null });
  expect(
    (await sql(t, "select status from entity_invitation where invitee_user_id = ?", [cyd.client.userId]))[0].status,
  ).toBe("expired");
  const edited = await founder.client.callOk("entitydraftservice.update_draft", {
    draft_id: draft.sid,
    template_data: JSON.stringify({ ...COOP_DATA, membership_fee: 20 }),
  });
  expect(edited.document_version).toBe(2);
  await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: draft.sid });

  // Ann's version-1 invitation cannot sign version 2.
  await refusedNoWrite(
    () => draftTables(t),
    () => ann.client.call("entitydraftservice.accept_invitation", { invitation_id: annV1 }),
    -32005,
    { type: "DraftError", variant: "VersionMismatch" },
  );

  // Everyone signs version 2; the draft completes.
  for (const p of [ann, bob, cyd]) {
    const invitation = await invitationOf(p, draft.sid);
    const signed = await p.client.callOk("entitydraftservice.accept_invitation", { invitation_id: invitation });
    expect(signed).toMatchObject({ status: "accepted", document_version: 2 });
  }
  const status = await bob.client.callOk("entitydraftservice.get_draft_status", { draft_id: draft.sid });
  expect(status.signers.map((s) => s.signed)).toEqual([true, true, true]);
  const complete = await founder.client.callOk("entitydraftservice.check_completion", { draft_id: draft.sid });
  expect(complete).toMatchObject({ status: "all_signed", complete: true, next_step: "pay", completed_signatures: 3 });

  // An empty wallet cannot pay.
  await refusedNoWrite(
    () => draftTables(t),
    () =>
      founder.client.call("entitydraftservice.pay_and_activate", { draft_id: draft.sid, subscription_plan: "monthly" }),
    -32006,
    { type: "DraftError", variant: "InsufficientFunds" },
  );

  // The wallet is funded through a sandbox mobile-money payment the provider confirms.
  const topup = await founder.client.callOk("creditservice.initiate_topup", { amount: 600, provider: "mobilepay" });
  const ack = await postVerdict(t, verdict(topup.mobilepay_order_id, "succeeded", 600));
  expect(ack.result).toMatchObject({ status: "confirmed" });
  expect(await balanceOf(t, founder.client.userId)).toBe(600);

  // Pay and activate: an active cooperative from the draft, with its roles.
  const active = await founder.client.callOk("entitydraftservice.pay_and_activate", {
    draft_id: draft.sid,
    subscription_plan: "monthly",
  });
  expect(active.status).toBe("active");
  expect(active.paid_at).not.toBeNull();
  expect(active.company_id).toMatch(/^FZ-\d{4}-P\d{6}$/);
  const [company] = await sql(
    t,
    "select company_type, status, draft_id, voting_model, setup_fee_paid::float8 as fee, shareholders from zone_company where company_id = ?",
    [active.company_id],
  );
  expect(company).toMatchObject({
    company_type: "coop_standard_fzc",
    status: "active",
    draft_id: draft.sid,
    voting_model: "cooperative",
  });
  expect(company.shareholders.map((s: { resident_id: string }) => s.resident_id)).toEqual([
    founder.resident,
    ann.resident,
    bob.resident,
    cyd.resident,
  ]);
  expect(await balanceOf(t, founder.client.userId)).toBeLessThan(600);
  const roles = await sql<{ subject_id: string; role: string }>(
    t,
    "select subject_id, role from company_role where company_id = ? and valid_to is null order by subject_id, role",
    [active.company_id],
  );
  const expected = [
    { subject_id: founder.resident, role: "founder" },
    { subject_id: founder.resident, role: "founding_member" },
    { subject_id: ann.resident, role: "founding_member" },
    { subject_id: bob.resident, role: "founding_member" },
    { subject_id: cyd.resident, role: "founding_member" },
  ].sort((a, b) => (a.subject_id + a.role < b.subject_id + b.role ? -1 : 1));
  expect(roles).toEqual(expected);
  const done = await ann.client.callOk("entitydraftservice.check_completion", { draft_id: draft.sid });
  expect(done).toMatchObject({ status: "active", next_step: "done", company_id: active.company_id });
});
