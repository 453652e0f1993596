import type { Progress } from "../progress.ts";
import { DemoError, type RpcClient, type Session } from "./client.ts";
import {
  AGENT_APPROVAL_PATTERN,
  AGENT_KEY_NAME,
  COMPANY,
  COOPERATIVE,
  DEMO_PASSWORD,
  type DemoPerson,
  PEOPLE,
  SCRIPT_KEY_NAME,
} from "./plan.ts";

/** One line of the report: what a step found or made. */
export interface SeedLine {
  created: boolean;
  text: string;
}

export interface Member {
  person: DemoPerson;
  session: Session;
  userId: string;
  residentId: string;
}

/** The number of progress steps `seedDemo` ticks. */
export const SEED_STEPS = PEOPLE.length * 2 + 2 + 2 + 1;

/**
 * Fills the demo zone through the public JSON-RPC operations only, each step first looking for what it would make
 * (by the demo emails, key names and entity names), so a second run creates nothing.
 */
export async function seedDemo(rpc: RpcClient, bar: Progress): Promise<SeedLine[]> {
  const lines: SeedLine[] = [];
  const members = new Map<DemoPerson["key"], Member>();
  for (const person of PEOPLE) {
    const { session, userId, created } = await signIn(rpc, person);
    lines.push({ created, text: `user ${person.email} (password ${DEMO_PASSWORD})` });
    bar.tick(1, person.email);
    const resident = await ensureResident(session, person);
    lines.push({ created: resident.created, text: `resident ${resident.residentId} of ${person.email} (pending)` });
    members.set(person.key, { person, session, userId, residentId: resident.residentId });
    bar.tick(1, resident.residentId);
  }
  const member = (key: DemoPerson["key"]): Member => {
    const found = members.get(key);
    if (!found) throw new DemoError(`demo member ${key} missing`);
    return found;
  };
  const alice = member("alice");
  lines.push(await ensureKey(alice.session, SCRIPT_KEY_NAME, {}));
  bar.tick(1, SCRIPT_KEY_NAME);
  const agent = await ensureKey(alice.session, AGENT_KEY_NAME, {
    mcp_scope: "readwrite",
    approval_required_tools: AGENT_APPROVAL_PATTERN,
  });
  lines.push(agent);
  bar.tick(1, AGENT_KEY_NAME);
  lines.push(await ensureDraft(alice, [member("bob")], COMPANY, (m) => (m === alice ? 500 : 100)));
  bar.tick(1, COMPANY.entity_name);
  lines.push(await ensureDraft(member("carol"), [member("dave"), alice], COOPERATIVE, () => 0));
  bar.tick(1, COOPERATIVE.entity_name);
  lines.push(await ensurePendingApproval(rpc, alice, agent.key));
  bar.tick(1, "approval");
  return lines;
}

async function signIn(rpc: RpcClient, person: DemoPerson) {
  const credentials = { email: person.email, password: DEMO_PASSWORD };
  const login = await rpc.call("authservice.login", credentials);
  const existing = "result" in login ? login.result : null;
  if (existing && "access_token" in existing) {
    return { session: rpc.as(existing.access_token), userId: existing.user_id, created: false };
  }
  const registered = await rpc.call("authservice.register", credentials);
  const made = "result" in registered ? registered.result : null;
  if (!made || !("access_token" in made)) {
    const why = "error" in registered ? registered.error.message : "a second factor is asked";
    throw new DemoError(`${person.email} exists but does not sign in with the demo password: ${why}`);
  }
  return { session: rpc.as(made.access_token), userId: made.user_id, created: true };
}

async function ensureResident(session: Session, person: DemoPerson) {
  const mine = await session.ok("residentservice.list", { page: 1, page_size: 10 });
  const existing = mine.items[0];
  if (existing) return { residentId: existing.resident_id, created: false };
  const { email, first_name, last_name, phone } = person;
  const made = await session.ok("residentservice.create", { data: { email, first_name, last_name, phone } });
  return { residentId: made.resident_id, created: true };
}

async function ensureKey(session: Session, name: string, policy: Record<string, unknown>) {
  const keys = (await session.ok("apikeyservice.list_personal")).items;
  const found = keys.find((k) => k.name === name);
  if (found) return { created: false, key: null, text: `${name} ${found.key_id} (its key was shown when created)` };
  const made = await session.ok("apikeyservice.generate_personal", { name, password: DEMO_PASSWORD, ...policy });
  const key = made.api_key;
  return { created: true, key, text: `${name} ${made.key_id}: ${key} (shown once)` };
}

type EntityPlan = typeof COMPANY | typeof COOPERATIVE;

/** A draft of `creator` with `invitees`, finalized, and every invitation accepted by its invitee. */
async function ensureDraft(creator: Member, invitees: Member[], plan: EntityPlan, units: (m: Member) => number) {
  const drafts = (await creator.session.ok("entitydraftservice.list_drafts")).items;
  const label = `${plan.entity_type} draft "${plan.entity_name}" of ${creator.person.email}`;
  if (drafts.some((d) => d.entity_name === plan.entity_name)) return { created: false, text: label };
  const role = plan.entity_type === "cooperative" ? "founding_member" : "shareholder";
  const row = (m: Member) => ({
    name: `${m.person.first_name} ${m.person.last_name}`,
    email: m.person.email,
    resident_id: null,
    units: units(m),
    role,
  });
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
    await invitee.session.ok("entitydraftservice.accept_invitation", { invitation_id: invitation.sid });
  }
  return { created: true, text: `${label}, signed by ${invitees.map((m) => m.person.email).join(", ")}` };
}

/** The agent key asks to change Alice's phone: its approval pattern makes that wait in her approvals inbox. */
async function ensurePendingApproval(rpc: RpcClient, alice: Member, agentKey: string | null) {
  const pending = (await alice.session.ok("mcpapprovalservice.list_pending")).items;
  const label = `pending approval of ${AGENT_APPROVAL_PATTERN} in the inbox of ${alice.person.email}`;
  if (pending.some((a) => a.tool_name === AGENT_APPROVAL_PATTERN)) return { created: false, text: label };
  if (agentKey === null) {
    return { created: false, text: `${label}: none pending, and the agent key's secret is no longer shown` };
  }
  const asked = await rpc.call(
    "residentservice.update",
    { resident_id: alice.residentId, data: { phone: "+255 700 100 009" } },
    { "x-api-key": agentKey },
  );
  if (!("error" in asked) || asked.error.data?.variant !== "ApprovalRequired") {
    throw new DemoError(`the agent key's call did not wait for approval: ${JSON.stringify(asked)}`);
  }
  return { created: true, text: `${label} (${String(asked.error.data["approval_id"])})` };
}
