import { DemoError, type Session } from "./client.ts";
import { openPrivateKey, signHash } from "./keys.ts";
import { type COMPANY, COMPANY_PLAN, type COOPERATIVE, DEMO_PASSWORD, type DemoPerson } from "./plan.ts";
import { ensureFunds, type SeedContext } from "./residents.ts";

export interface Member {
  person: DemoPerson;
  session: Session;
  userId: string;
  residentId: string;
}

export type EntityPlan = typeof COMPANY | typeof COOPERATIVE;

export const memberName = (m: Member) => `${m.person.first_name} ${m.person.last_name}`;

/** The draft of `plan` made by `creator`, by entity name; null when there is none. */
async function findDraft(creator: Member, plan: EntityPlan) {
  const drafts = (await creator.session.ok("entitydraftservice.list_drafts")).items;
  return drafts.find((d) => d.entity_name === plan.entity_name) ?? null;
}

/** A draft of `creator` with `invitees`, finalized, and every invitation accepted by its invitee. */
export async function ensureDraft(creator: Member, invitees: Member[], plan: EntityPlan, units: (m: Member) => number) {
  const label = `${plan.entity_type} draft "${plan.entity_name}" of ${creator.person.email}`;
  if (await findDraft(creator, plan)) return { created: false, text: label };
  const role = plan.entity_type === "cooperative" ? "founding_member" : "shareholder";
  const row = (m: Member) => ({ name: memberName(m), email: m.person.email, resident_id: null, units: units(m), role });
  const draft = await creator.session.ok("entitydraftservice.create_draft", {
    ...plan,
    template_data: JSON.stringify(plan.template_data),
    shareholders: [row(creator), ...invitees.map(row)],
  });
  await creator.session.ok("entitydraftservice.finalize_draft", { draft_id: draft.sid });
  for (const invitee of invitees) {
    const mine = (await invitee.session.ok("entitydraftservice.get_my_invitations")).items;
    const invitation = mine.find((i) => i.draft_id === draft.sid);
    if (!invitation) throw new DemoError(`${invitee.person.email} got no invitation to ${plan.entity_name}`);
    const signature = await signInvitation(invitee, invitation.sid);
    await invitee.session.ok("entitydraftservice.accept_invitation", { invitation_id: invitation.sid, signature });
  }
  return { created: true, text: `${label}, signed by ${invitees.map((m) => m.person.email).join(", ")}` };
}

/**
 * The invitee's Ed25519 signature of the documents' signing hash, with the resident key it sealed with the demo
 * password (fetched as the console fetches it); undefined when its resident holds no key yet (an acceptance record).
 */
async function signInvitation(invitee: Member, invitationId: string): Promise<string | undefined> {
  const stored = await invitee.session.call("keypairservice.get_encrypted_private_key", {
    entity_type: "resident",
    entity_id: invitee.residentId,
  });
  if ("error" in stored) return undefined;
  const key = openPrivateKey(stored.result.encrypted_private_key, DEMO_PASSWORD, invitee.person.email);
  const docs = await invitee.session.ok("entitydraftservice.get_invitation_documents", { invitation_id: invitationId });
  return signHash(key, docs.signing_hash);
}

/**
 * The signed draft paid and activated by its creator (entitydraftservice.pay_and_activate): the registration is
 * debited from the creator's wallet, topped up through the sandbox first when it falls short. Returns the company id.
 */
export async function ensureFormed(ctx: SeedContext, creator: Member, plan: EntityPlan) {
  const draft = await findDraft(creator, plan);
  if (!draft) throw new DemoError(`the draft of ${plan.entity_name} is missing`);
  if (draft.status === "active" && draft.company_id) {
    return {
      companyId: draft.company_id,
      line: { created: false, text: `${plan.entity_type} "${plan.entity_name}" ${draft.company_id} (active)` },
    };
  }
  // check_completion moves a draft whose signatures are all in to all_signed.
  const checked = await creator.session.ok("entitydraftservice.check_completion", { draft_id: draft.sid });
  if (checked.status !== "all_signed") throw new DemoError(`the draft of ${plan.entity_name} is ${checked.status}`);
  const pay = () =>
    creator.session.call("entitydraftservice.pay_and_activate", {
      draft_id: draft.sid,
      subscription_plan: COMPANY_PLAN,
    });
  let paid = await pay();
  let topup = 0;
  if ("error" in paid && paid.error.data?.["variant"] === "InsufficientFunds") {
    topup = await ensureFunds(ctx, creator.session, Number(paid.error.data["required"]));
    paid = await pay();
  }
  if ("error" in paid) throw new DemoError(`pay_and_activate ${plan.entity_name}: ${paid.error.message}`);
  const companyId = paid.result.company_id;
  if (!companyId) throw new DemoError(`${plan.entity_name} was paid but names no company`);
  const after = topup > 0 ? ` after a sandbox top-up of ${topup} USD` : "";
  const text = `${plan.entity_type} "${plan.entity_name}" ${companyId} active: ${COMPANY_PLAN} plan paid by ${creator.person.email}${after}`;
  return { companyId, line: { created: true, text } };
}
