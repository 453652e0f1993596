import { beforeEach, describe, expect, test } from "vitest";
import { newKeypair } from "../signatures/support.ts";
import type { TestApp } from "../support/app.ts";
import { member, startFinanceApp } from "../support/entities.ts";
import { count, refusedNoWrite, sql } from "../support/helpers.ts";
import { COOP_DATA, coopDraft, draftTables, invitationOf, type Person, people } from "./support.ts";

let t: TestApp;
let founder: Person;
let ann: Person;
let bob: Person;
beforeEach(async () => {
  t = await startFinanceApp();
  founder = await member(t);
  [ann, bob] = (await people(t, 2)) as [Person, Person];
});

const finalize = (draftId: string) => founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: draftId });
/** The draft with its signature deadline two minutes ahead (sessions outlive that, not 30 days). */
async function soonDue(d: { sid: string }) {
  const deadline = new Date(t.clock.now().getTime() + 120_000).toISOString();
  return founder.client.callOk("entitydraftservice.update_draft", { draft_id: d.sid, signature_deadline: deadline });
}
const conflict = (variant: string) => [-32005, { type: "DraftError", variant }] as const;

describe("finalize_draft", () => {
  test("invites each cap-table row but the creator's, pending until the deadline, with resident ids fixed", async () => {
    const d = await coopDraft(founder, [ann, bob]);
    const f = await finalize(d.sid);
    expect(f).toMatchObject({ status: "pending_signatures", total_required_signatures: 2 });
    expect(f.finalized_at).toBe(t.clock.now().toISOString());
    const rows = await sql(
      t,
      "select invitee_dr_id, cap_table_email, status, document_version::int as v, expires_at from entity_invitation order by invitee_dr_id",
    );
    expect(rows.map((r) => [r.invitee_dr_id, r.cap_table_email, r.status, r.v])).toEqual(
      [ann, bob].map((p) => [p.resident, p.client.email, "pending", 1]).sort(),
    );
    expect(rows.every((r) => new Date(r.expires_at).toISOString() === d.signature_deadline)).toBe(true);
    expect(await count(t, "email_outbox", "template = 'entity_invitation'")).toBe(2);
    const mine = await ann.client.callOk("entitydraftservice.get_my_invitations", {});
    expect(mine.items).toHaveLength(1);
    expect(JSON.stringify(mine)).not.toContain(founder.client.userId);
    expect(Object.keys(mine.items[0]!)).not.toContain("inviter_user_id");
  });

  test("a cancelled draft is refused InvalidState and nothing is written", async () => {
    const d = await coopDraft(founder, [ann]);
    await founder.client.callOk("entitydraftservice.cancel_draft", { draft_id: d.sid });
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.finalize_draft", { draft_id: d.sid }),
      ...conflict("InvalidState"),
    );
  });

  test("an expired draft is refused InvalidState; a draft past its deadline before the sweep is Expired", async () => {
    const d = await soonDue(await coopDraft(founder, [ann]));
    t.clock.set(d.signature_deadline);
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.finalize_draft", { draft_id: d.sid }),
      ...conflict("Expired"),
    );
    const admin = await t.admin();
    await admin.callOk("entitydraftservice.expire_drafts");
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.finalize_draft", { draft_id: d.sid }),
      ...conflict("InvalidState"),
    );
  });

  test("a cap-table email without a user is InvalidInput; an invitee is NotOwner; a stranger NotFound", async () => {
    const d = await founder.client.callOk("entitydraftservice.create_draft", {
      entity_type: "cooperative",
      entity_name: "Ghost Coop",
      company_type: "coop_standard_fzc",
      template_data: JSON.stringify(COOP_DATA),
      shareholders: [{ name: "Nobody", email: "nobody@example.org", resident_id: null, units: 0, role: null }],
    });
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.finalize_draft", { draft_id: d.sid }),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
    const shared = await coopDraft(founder, [ann]);
    await finalize(shared.sid);
    await founder.client.callOk("entitydraftservice.reopen_draft", { draft_id: shared.sid });
    await refusedNoWrite(
      () => draftTables(t),
      () => ann.client.call("entitydraftservice.finalize_draft", { draft_id: shared.sid }),
      -32002,
      { type: "DraftError", variant: "NotOwner" },
    );
    await refusedNoWrite(
      () => draftTables(t),
      () => bob.client.call("entitydraftservice.finalize_draft", { draft_id: shared.sid }),
      -32003,
      { type: "DraftError", variant: "NotFound" },
    );
  });
});

describe("accept_invitation", () => {
  test("signs the current version: an acceptance record, signature_id, responded_at and one more signature", async () => {
    const d = await coopDraft(founder, [ann, bob]);
    await finalize(d.sid);
    const inv = await invitationOf(ann, d.sid);
    const r = await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: inv });
    expect(r).toMatchObject({ status: "accepted", responded_at: t.clock.now().toISOString() });
    const [sig] = await sql(t, "select * from document_signature where sid = ?", [r.signature_id]);
    const docs = await ann.client.callOk("entitydraftservice.get_invitation_documents", { invitation_id: inv });
    expect(sig).toMatchObject({
      entity_type: "resident",
      entity_id: ann.resident,
      document_hash: docs.signing_hash,
      public_key: "",
    });
    const s = await founder.client.callOk("entitydraftservice.get_draft_status", { draft_id: d.sid });
    expect(s.completed_signatures).toBe(1);
  });

  test("a resident with a key signs signing_hash: recorded with its key; a missing or bad signature is refused", async () => {
    const keys = newKeypair();
    const signer = await member(t, { public_key: keys.publicKey, keypair_version: 1 });
    const d = await coopDraft(founder, [signer]);
    await finalize(d.sid);
    const inv = await invitationOf(signer, d.sid);
    const { signing_hash } = await signer.client.callOk("entitydraftservice.get_invitation_documents", {
      invitation_id: inv,
    });
    await refusedNoWrite(
      () => draftTables(t),
      () => signer.client.call("entitydraftservice.accept_invitation", { invitation_id: inv }),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        signer.client.call("entitydraftservice.accept_invitation", {
          invitation_id: inv,
          signature: newKeypair().sign(signing_hash),
        }),
      -32006,
      { type: "DraftError", variant: "InvalidSignature" },
    );
    const signature = keys.sign(signing_hash);
    const r = await signer.client.callOk("entitydraftservice.accept_invitation", { invitation_id: inv, signature });
    const [sig] = await sql(
      t,
      "select signature, public_key, key_version::int as v from document_signature where sid = ?",
      [r.signature_id],
    );
    expect(sig).toEqual({ signature, public_key: keys.publicKey, v: 1 });
  });

  test("the creator is NotOwner, a stranger NotFound, a second accept InvalidState, after expiry Expired", async () => {
    const d = await soonDue(await coopDraft(founder, [ann, bob]));
    await finalize(d.sid);
    const inv = await invitationOf(ann, d.sid);
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.accept_invitation", { invitation_id: inv }),
      -32002,
      { type: "DraftError", variant: "NotOwner" },
    );
    const stranger = await member(t);
    await refusedNoWrite(
      () => draftTables(t),
      () => stranger.client.call("entitydraftservice.accept_invitation", { invitation_id: inv }),
      -32003,
      { type: "DraftError", variant: "NotFound" },
    );
    await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: inv });
    await refusedNoWrite(
      () => draftTables(t),
      () => ann.client.call("entitydraftservice.accept_invitation", { invitation_id: inv }),
      ...conflict("InvalidState"),
    );
    const bobs = await invitationOf(bob, d.sid);
    t.clock.set(d.signature_deadline);
    await refusedNoWrite(
      () => draftTables(t),
      () => bob.client.call("entitydraftservice.accept_invitation", { invitation_id: bobs }),
      ...conflict("Expired"),
    );
  });

  test("concurrent acceptances each count (one conditional update per signature)", async () => {
    const invitees = await people(t, 4);
    const d = await coopDraft(founder, invitees);
    await finalize(d.sid);
    const ids = await Promise.all(invitees.map((p) => invitationOf(p, d.sid)));
    const replies = await Promise.all(
      invitees.map((p, i) => p.client.call("entitydraftservice.accept_invitation", { invitation_id: ids[i]! })),
    );
    expect(replies.every((r) => "result" in r)).toBe(true);
    const [row] = await sql(t, "select completed_signatures::int as n from entity_draft where sid = ?", [d.sid]);
    expect(row.n).toBe(4);
  });
});

describe("get_invitation_documents", () => {
  test("answers the version the invitation is for, after an edit too; others get NotFound", async () => {
    const d = await coopDraft(founder, [ann]);
    await finalize(d.sid);
    const v1 = await invitationOf(ann, d.sid);
    const before = await ann.client.callOk("entitydraftservice.get_invitation_documents", { invitation_id: v1 });
    await founder.client.callOk("entitydraftservice.reopen_draft", { draft_id: d.sid });
    await founder.client.callOk("entitydraftservice.update_draft", {
      draft_id: d.sid,
      entity_name: "Renamed Cooperative",
    });
    const after = await founder.client.callOk("entitydraftservice.get_invitation_documents", { invitation_id: v1 });
    expect(after).toEqual(before);
    expect(after.document_version).toBe(1);
    const current = await founder.client.callOk("entitydraftservice.preview_documents", { draft_id: d.sid });
    expect(current.documents[0]!.content).toContain("Renamed Cooperative");
    expect(current.signing_hash).not.toBe(before.signing_hash);
    const r = await bob.client.call("entitydraftservice.get_invitation_documents", { invitation_id: v1 });
    expect(r).toMatchObject({ error: { code: -32003, data: { variant: "NotFound" } } });
  });
});

describe("decline_invitation", () => {
  test("stores the reason, tells the creator in the inbox and blocks completion", async () => {
    const d = await coopDraft(founder, [ann]);
    await finalize(d.sid);
    const inv = await invitationOf(ann, d.sid);
    const r = await ann.client.callOk("entitydraftservice.decline_invitation", {
      invitation_id: inv,
      reason: " Too costly ",
    });
    expect(r).toMatchObject({ status: "rejected", decline_reason: "Too costly" });
    const inbox = await founder.client.callOk("messageservice.list_user_messages", {});
    expect(inbox.items.some((m: { body: string }) => m.body.includes("Too costly"))).toBe(true);
    const c = await founder.client.callOk("entitydraftservice.check_completion", { draft_id: d.sid });
    expect(c).toMatchObject({ status: "pending_signatures", complete: false });
    await refusedNoWrite(
      () => draftTables(t),
      () => ann.client.call("entitydraftservice.decline_invitation", { invitation_id: inv }),
      ...conflict("InvalidState"),
    );
  });
});

describe("reopen_draft, cancel_draft, check_completion", () => {
  test("reopen moves pending_signatures back to draft and voids pending invitations (expired)", async () => {
    const d = await coopDraft(founder, [ann, bob]);
    await finalize(d.sid);
    await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: await invitationOf(ann, d.sid) });
    const r = await founder.client.callOk("entitydraftservice.reopen_draft", { draft_id: d.sid });
    expect(r).toMatchObject({ status: "draft", completed_signatures: 0, total_required_signatures: 0 });
    const statuses = await sql(t, "select status from entity_invitation order by status");
    expect(statuses.map((s) => s.status)).toEqual(["accepted", "expired"]);
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.reopen_draft", { draft_id: d.sid }),
      ...conflict("InvalidState"),
    );
  });

  test("cancel from draft or pending_signatures expires pending invitations; a cancelled draft refuses it", async () => {
    const d = await coopDraft(founder, [ann]);
    await finalize(d.sid);
    const c = await founder.client.callOk("entitydraftservice.cancel_draft", { draft_id: d.sid });
    expect(c.status).toBe("cancelled");
    expect((await sql(t, "select status from entity_invitation"))[0].status).toBe("expired");
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.cancel_draft", { draft_id: d.sid }),
      ...conflict("InvalidState"),
    );
    const fresh = await coopDraft(founder, [ann]);
    expect((await founder.client.callOk("entitydraftservice.cancel_draft", { draft_id: fresh.sid })).status).toBe(
      "cancelled",
    );
  });

  test("check_completion moves a fully signed draft to all_signed once; repeating it changes nothing", async () => {
    const d = await coopDraft(founder, [ann]);
    await finalize(d.sid);
    await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: await invitationOf(ann, d.sid) });
    const first = await ann.client.callOk("entitydraftservice.check_completion", { draft_id: d.sid });
    expect(first).toMatchObject({ status: "all_signed", complete: true, completed_at: t.clock.now().toISOString() });
    t.clock.advance(60);
    const before = await draftTables(t);
    const again = await founder.client.callOk("entitydraftservice.check_completion", { draft_id: d.sid });
    expect(again).toEqual(first);
    expect(await draftTables(t)).toEqual(before);
  });

  test("paying before all signatures is InvalidState; an invitee paying is NotOwner; nothing is written", async () => {
    const d = await coopDraft(founder, [ann]);
    await finalize(d.sid);
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        founder.client.call("entitydraftservice.pay_and_activate", { draft_id: d.sid, subscription_plan: "monthly" }),
      ...conflict("InvalidState"),
    );
    await refusedNoWrite(
      () => draftTables(t),
      () => ann.client.call("entitydraftservice.pay_and_activate", { draft_id: d.sid, subscription_plan: "monthly" }),
      -32002,
      { type: "DraftError", variant: "NotOwner" },
    );
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        founder.client.call("entitydraftservice.pay_and_activate", {
          draft_id: d.sid,
          user_id: ann.client.userId,
          subscription_plan: "monthly",
        }),
      -32002,
      null,
    );
  });
});
