import { generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { CompanySubscriptionPlan, CompanyType, InvitationRole } from "../../generated/types.ts";
import type { Config } from "../../src/config.ts";
import { sandboxKycCallback, sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import { sandboxPaymentCallback, sandboxReceivingCallback } from "../../src/integrations/payments/sandbox-callbacks.ts";
import { COMPANY, COOPERATIVE } from "../../tools/seed-demo/plan.ts";
import { type Client, PASSWORD, type TestApp, typedCaller } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";

/**
 * Journeys of the seeds walked through the public API only (issue 30, "What to build" item 3): JSON-RPC over the
 * in-process HTTP app, the sandbox providers' signed webhooks posted to /rpc as the providers post them, the test
 * clock for time, and the instance's own jobs run as their timers would fire (`t.app.runJobs()`, after the clock moves). No SQL and no repository call: the one step outside the API is the first administrator
 * (`t.admin()`, the documented bootstrap). Every helper here is a sequence of what a user, the administrator or a
 * sandbox provider does, and checks what that user would see at the end of it.
 */

/** A running zone: the app and its first administrator's session. */
export interface Zone {
  t: TestApp;
  admin: Client;
}

/**
 * A fresh zone: the registration contracts synced from the templates (so the contracts step of activation is real),
 * the per-address limit lifted (a journey registers many people from one address), and the first administrator.
 */
export async function startZone(overrides: Partial<Config> = {}): Promise<Zone> {
  const t = await startFinanceApp({ contractTemplateSync: true, ...overrides });
  return { t, admin: await t.admin("admin@example.org") };
}

/** A journey's zone and its people, each key a resident `<key>@example.org`, onboarded in order. */
export type Cast<N extends string> = { zone: Zone } & { [K in N]: Resident };

/**
 * A journey file's set-up: before its tests, a fresh zone (`overrides` as for startZone) and each person onboarded
 * (onboardResident) in the order given; after them, the zone closed. Read the fields inside a test.
 */
export function journeyCast<N extends string>(
  people: { [K in N]: ResidentOptions },
  overrides: Partial<Config> = {},
): Cast<N> {
  const cast = {} as Cast<N>;
  beforeAll(async () => {
    const zone = await startZone(overrides);
    Object.assign(cast, { zone });
    for (const [name, options] of Object.entries(people) as [N, ResidentOptions][]) {
      Object.assign(cast, { [name]: await onboardResident(zone, `${name}@example.org`, options) });
    }
  });
  afterAll(async () => {
    await cast.zone?.t.close();
  });
  return cast;
}

// ---- Keys (the client side: private keys never reach the server) ----

/** A resident's Ed25519 keypair as a client holds it: the public half in hex, the private key, the sealed blob. */
export interface Keypair {
  publicKey: string;
  privateKey: KeyObject;
  /** The opaque `hex(nonce):hex(ciphertext)` string the server stores verbatim (content never read by it). */
  encryptedPrivateKey: string;
}

export function newKeypair(): Keypair {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const sealed = `${randomBytes(12).toString("hex")}:${randomBytes(48).toString("hex")}`;
  return { publicKey: raw.toString("hex"), privateKey, encryptedPrivateKey: sealed };
}

/** An Ed25519 signature (128 hex) over the 32 raw bytes of a SHA-256 hex digest (API.md "signed message"). */
export function signHash(keys: Keypair, hashHex: string): string {
  return sign(null, Buffer.from(hashHex, "hex"), keys.privateKey).toString("hex");
}

// ---- Email (the sandbox outbox, read by the administrator as on a sandbox deployment) ----

/** The first link of the newest email of `template` sent to `to`. */
export async function emailLink(zone: Zone, to: string, template: string): Promise<string> {
  const r = await zone.admin.callOk("adminservice.list_outbox", { to_email: to });
  const email = r.items.find((e) => e.template === template);
  const link = email?.links[0];
  if (!link) throw new Error(`no ${template} email with a link to ${to}`);
  return link;
}

/**
 * Follows the verification link of the registration email: the page it opens (GET, served by the app, the token
 * kept out of the HTML) and the call its form makes, `authservice.verify_email` with the link's token.
 */
export async function verifyEmailByLink(zone: Zone, client: Client): Promise<void> {
  const link = await emailLink(zone, client.email, "verify_email");
  const url = new URL(link);
  expect(url.pathname).toBe("/verify-email");
  const token = url.searchParams.get("token") ?? "";
  const page = await zone.t.app.fetch(new Request(link));
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(await page.text()).not.toContain(token);
  const verified = await zone.t.callOk("authservice.verify_email", { token });
  expect(verified.status).toBe("verified");
}

// ---- Sandbox providers ----

let events = 0;
const eventId = (prefix: string) => `${prefix}-${++events}-${randomBytes(4).toString("hex")}`;

/** The sandbox identity provider's verdict for a session it opened, signed and posted as it posts it. */
export async function postKycVerdict(zone: Zone, kycUrl: string): Promise<void> {
  const scanRef = kycUrl.split("/").pop() ?? "";
  const now = zone.t.clock.now();
  const data = sandboxKycVerdict(scanRef, eventId("evt-kyc"), now);
  if (!data) throw new Error(`the sandbox identity provider never answers for ${scanRef}`);
  const { body, headers } = sandboxKycCallback(zone.t.config.webhookSecret, data, now);
  const r = await zone.t.post("/rpc", body, headers);
  if (r.error) throw new Error(`KYC webhook refused: ${JSON.stringify(r.error)}`);
}

/** The sandbox mobile-money provider reporting an order `succeeded`; returns the webhook's acknowledgement. */
export async function postMobileMoneySucceeded(zone: Zone, orderId: string, amount: number, currency = "USD") {
  const now = zone.t.clock.now();
  const data = {
    event_id: eventId("evt-pay"),
    event_type: "payment.updated",
    order_id: orderId,
    status: "succeeded" as const,
    amount,
    currency,
    occurred_at: now.toISOString(),
  };
  const { body, headers } = sandboxPaymentCallback(zone.t.config.webhookSecret, data, now);
  const r = await zone.t.post("/rpc", body, headers);
  if (r.error) throw new Error(`payment webhook refused: ${JSON.stringify(r.error)}`);
  return r.result;
}

/**
 * Payment receiving for a resident or company through a provider: connected by its owner (or a director), then
 * verified by the provider's signed receiving webhook. Answers `payment_receiving_enabled` as the owner reads it.
 */
export async function enableReceiving(
  zone: Zone,
  client: Client,
  entity: { entity_type: "resident" | "company"; entity_id: string },
  provider: "mobilepay" | "cardpsp" = "mobilepay",
) {
  const connected = await client.callOk("paymentservice.connect_payment_receiving", { ...entity, provider });
  expect(connected.payment_receiving_enabled).toBe(false);
  const now = zone.t.clock.now();
  const data = {
    event_id: eventId("evt-rcv"),
    provider,
    account_id: connected.account_id,
    status: "verified" as const,
    occurred_at: now.toISOString(),
  };
  const { body, headers } = sandboxReceivingCallback(zone.t.config.webhookSecret, data, now);
  const r = await zone.t.post("/rpc", body, headers);
  if (r.error) throw new Error(`receiving webhook refused: ${JSON.stringify(r.error)}`);
  return connected;
}

/** A mobile-money top-up of the caller's wallet, confirmed by the provider; returns the balance after it. */
export async function topUp(zone: Zone, client: Client, amount: number): Promise<number> {
  const order = await client.callOk("creditservice.initiate_topup", { amount, provider: "mobilepay" });
  await postMobileMoneySucceeded(zone, order.mobilepay_order_id, amount);
  return (await client.callOk("creditservice.get_balance")).balance;
}

/** Tops the wallet up to at least `amount` USD (whole dollars); returns what was added. */
export async function ensureFunds(zone: Zone, client: Client, amount: number): Promise<number> {
  const { balance } = await client.callOk("creditservice.get_balance");
  if (balance >= amount) return 0;
  const missing = Math.ceil(amount - balance);
  await topUp(zone, client, missing);
  return missing;
}

// ---- Residents ----

/** An active resident as its owner holds it: the session, the ids, the client-side keys. */
export interface Resident {
  client: Client;
  userId: string;
  email: string;
  residentId: string;
  residentSid: string;
  name: string;
  keys: Keypair;
  /** The identity provider's URL of the resident's approved KYC session (its last segment is the scan reference). */
  kycUrl: string;
}

export interface ResidentOptions {
  first_name?: string;
  last_name?: string;
  phone?: string;
  /** Residency plan; `1_year` unless told. */
  plan?: "1_month" | "6_months" | "1_year" | "2_years" | "3_years";
  /** Extra USD left in the wallet after activation (for later purchases), 0 unless told. */
  spare?: number;
}

/** Registers `email` (with the test password) and answers its session. */
export function registerPerson(zone: Zone, email: string): Promise<Client> {
  return zone.t.register(email);
}

/**
 * A fresh session of an existing account (login with the test password): what a user does when the test clock
 * has moved past the one-hour session lifetime.
 */
export async function signIn(zone: Zone, email: string): Promise<Client> {
  const r = await zone.t.callOk("authservice.login", { email, password: PASSWORD });
  if (!("access_token" in r)) throw new Error(`${email}: login asked for a second factor`);
  const token = r.access_token;
  const rpc = (method: string, params: unknown = {}) =>
    zone.t.rpc(method, params, { authorization: `Bearer ${token}` });
  return { userId: r.user_id, email, token, rpc, ...typedCaller(rpc) };
}

/** Signs the resident's owner (and the administrator) in again after the clock moved past their sessions. */
export async function signInAgain(zone: Zone, ...residents: Resident[]): Promise<void> {
  zone.admin = await signIn(zone, zone.admin.email);
  for (const r of residents) r.client = await signIn(zone, r.email);
}

/** Signs every active registration contract required of a resident, as the user for itself. */
export async function signRequiredContracts(zone: Zone, client: Client, name: string): Promise<number> {
  const required = await zone.t.callOk("contractservice.get_required_contracts", { entity_type: "resident" });
  for (const contract of required.items) {
    await client.callOk("contractservice.sign_contract", {
      contract_id: contract.sid,
      entity_type: "user",
      entity_name: name,
      entity_id: "",
    });
  }
  return required.items.length;
}

/** Opens a KYC session bound to the resident's public key and posts the sandbox provider's approving verdict. */
export async function passKyc(zone: Zone, client: Client, residentId: string, publicKey: string) {
  const session = await client.callOk("kycservice.start_verification", {
    resident_id: residentId,
    public_key: publicKey,
  });
  await postKycVerdict(zone, session.kyc_url);
  return session;
}

/**
 * A newcomer made an active resident through the registration steps: register, verify the email by its link,
 * create the resident, sign the required contracts, KYC approved by the sandbox provider's webhook, the plan paid
 * from the wallet (topped up by mobile money) with `creditservice.activate_resident`, which stores the keypair.
 */
export async function onboardResident(zone: Zone, email: string, options: ResidentOptions = {}): Promise<Resident> {
  const local = email.split("@")[0] ?? "member";
  const first = options.first_name ?? local.charAt(0).toUpperCase() + local.slice(1);
  const last = options.last_name ?? "Journey";
  const plan = options.plan ?? "1_year";
  const client = await registerPerson(zone, email);
  await verifyEmailByLink(zone, client);
  const made = await client.callOk("residentservice.create", {
    data: { email, first_name: first, last_name: last, phone: options.phone ?? "+255 700 000 001" },
  });
  const name = `${first} ${last}`;
  await signRequiredContracts(zone, client, name);
  const keys = newKeypair();
  const kyc = await passKyc(zone, client, made.resident_id, keys.publicKey);
  const price = await residencyPrice(zone, plan);
  await ensureFunds(zone, client, price + (options.spare ?? 0));
  const done = await client.callOk("creditservice.activate_resident", {
    plan,
    public_key: keys.publicKey,
    encrypted_private_key: keys.encryptedPrivateKey,
  });
  expect(done).toMatchObject({ activated: true, status: "active", amount_charged: price, missing_steps: [] });
  return {
    client,
    userId: client.userId,
    email,
    residentId: made.resident_id,
    residentSid: made.sid,
    name,
    keys,
    kycUrl: kyc.kyc_url,
  };
}

/** The residency price of a plan in USD, as PricingService lists it to anyone. */
export async function residencyPrice(zone: Zone, plan: string): Promise<number> {
  const pricing = await zone.t.callOk("creditservice.get_pricing");
  const found = pricing.resident_plans.find((p) => p.plan === plan);
  if (!found) throw new Error(`no residency price for ${plan}`);
  return found.amount;
}

// ---- Companies ----

export interface Holder {
  resident: Resident;
  /** Share units (0 for cooperative founding members and director-only rows). */
  units: number;
  role?: InvitationRole | null;
}

export interface FormedCompany {
  companyId: string;
  companySid: string;
  draftId: string;
  /** What the founder's wallet paid for the registration. */
  charged: number;
}

export interface CompanyOptions {
  /** `company` (default) or `cooperative` (one vote per founding member, member discipline). */
  entity_type?: "company" | "cooperative";
  name?: string;
  company_type?: CompanyType;
  plan?: CompanySubscriptionPlan;
}

let companies = 0;

/** The formation forms of a company and of a cooperative: the demo seed's (what `get_form_schema` asks of each). */
export const COMPANY_FORM = COMPANY.template_data;
export const COOPERATIVE_FORM = COOPERATIVE.template_data;

/**
 * A company (or a cooperative) formed through a draft: the founder's draft with the cap table (the founder's own row first), finalized,
 * every other holder's invitation accepted with an Ed25519 signature over the documents' signing hash, completion
 * checked, and the registration paid from the founder's wallet (topped up by mobile money when short).
 */
export async function formCompany(
  zone: Zone,
  founder: Holder,
  others: Holder[],
  options: CompanyOptions = {},
): Promise<FormedCompany> {
  companies += 1;
  const coop = options.entity_type === "cooperative";
  const name = options.name ?? (coop ? `Journey Makers ${companies} Cooperative` : `Journey Works ${companies} FZC`);
  const row = (h: Holder) => ({
    name: h.resident.name,
    email: h.resident.email,
    resident_id: null,
    units: coop ? 0 : h.units,
    role: h.role ?? (coop ? "founding_member" : "shareholder"),
  });
  const f = founder.resident.client;
  const draft = await f.callOk("entitydraftservice.create_draft", {
    entity_type: coop ? "cooperative" : "company",
    entity_name: name,
    company_type: options.company_type ?? (coop ? "coop_standard_fzc" : "startup_fzc"),
    template_data: JSON.stringify(coop ? COOPERATIVE_FORM : COMPANY_FORM),
    shareholders: [row(founder), ...others.map(row)],
  });
  await f.callOk("entitydraftservice.finalize_draft", { draft_id: draft.sid });
  for (const h of others) {
    const mine = await h.resident.client.callOk("entitydraftservice.get_my_invitations");
    const invitation = mine.items.find((i) => i.draft_id === draft.sid);
    if (!invitation) throw new Error(`${h.resident.email} got no invitation to ${name}`);
    const docs = await h.resident.client.callOk("entitydraftservice.get_invitation_documents", {
      invitation_id: invitation.sid,
    });
    await h.resident.client.callOk("entitydraftservice.accept_invitation", {
      invitation_id: invitation.sid,
      signature: signHash(h.resident.keys, docs.signing_hash),
    });
  }
  const checked = await f.callOk("entitydraftservice.check_completion", { draft_id: draft.sid });
  expect(checked.status).toBe("all_signed");
  const pay = () =>
    f.call("entitydraftservice.pay_and_activate", {
      draft_id: draft.sid,
      subscription_plan: options.plan ?? "monthly",
    });
  const before = (await f.callOk("creditservice.get_balance")).balance;
  let paid = await pay();
  let topped = 0;
  if ("error" in paid && paid.error.data?.variant === "InsufficientFunds") {
    topped = await ensureFunds(zone, f, Number(paid.error.data["required"]));
    paid = await pay();
  }
  if ("error" in paid) throw new Error(`pay_and_activate: ${JSON.stringify(paid.error)}`);
  const companyId = paid.result.company_id;
  if (!companyId) throw new Error(`${name} was paid but names no company`);
  const company = await f.callOk("companyservice.get", { company_id: companyId });
  expect(company.status).toBe("active");
  const after = (await f.callOk("creditservice.get_balance")).balance;
  return { companyId, companySid: company.sid, draftId: draft.sid, charged: cents(before + topped - after) };
}

/** Money in major units rounded to the cent (sums of JSON numbers). */
export const cents = (n: number): number => Math.round(n * 100) / 100;

/**
 * The current roles of a company by holder name, as a member lists them (the list names holders by display name
 * and opaque external id; `subject_id` stays null for them, decisions.md "Holder display").
 */
export async function rolesOf(client: Client, companyId: string): Promise<Record<string, string[]>> {
  const r = await client.callOk("companyroleservice.list_by_company", { company_id: companyId, as_of_epoch: 0 });
  const out: Record<string, string[]> = {};
  for (const role of r.items) {
    const key = role.holder_name ?? role.subject_id ?? "(anonymous)";
    out[key] = [...(out[key] ?? []), role.role];
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

// ---- Treasury ----

let accounts = 0;

/** A bank account in `currency` (IBAN-less: an account number) of the owner's choosing. */
export function bankAccount(currency: string, approvalThreshold = 0, name?: string) {
  accounts += 1;
  return {
    kind: "bank_account" as const,
    name: name ?? `${currency} account ${accounts}`,
    currency,
    approval_threshold: approvalThreshold,
    bank_name: "Harbour Bank",
    account_number: String(10_000_000 + accounts),
  };
}

/** A company treasury account opened by a director (or founder); answers its sid. */
export async function openCompanyAccount(
  director: Resident,
  companyId: string,
  currency: string,
  approvalThreshold = 0,
): Promise<string> {
  const data = bankAccount(currency, approvalThreshold);
  const r = await director.client.callOk("treasuryservice.create_company_account", { company_id: companyId, data });
  return r.sid;
}

/** A resident's own treasury account; answers its sid. */
export async function openResidentAccount(resident: Resident, currency: string, approvalThreshold = 0) {
  const data = bankAccount(currency, approvalThreshold);
  const r = await resident.client.callOk("treasuryservice.create_resident_account", {
    resident_id: resident.residentId,
    data,
  });
  return r.sid;
}

/** Sandbox funding of a treasury account by the administrator (treasuryservice.fund_account). */
export async function fundAccount(zone: Zone, accountId: string, amount: number, currency: string): Promise<void> {
  await zone.admin.callOk("treasuryservice.fund_account", { account_id: accountId, amount, currency });
}

/** The balance of a company account as a member reads it. */
export async function companyBalance(member: Resident, companyId: string, accountId: string) {
  const r = await member.client.callOk("treasuryservice.get_company_account", {
    company_id: companyId,
    account_id: accountId,
  });
  return { balance: r.balance, available: r.available_balance, pending_out: r.pending_out };
}

/** The balance of a resident's account as its owner reads it. */
export async function residentBalance(resident: Resident, accountId: string): Promise<number> {
  const r = await resident.client.callOk("treasuryservice.get_resident_account", {
    resident_id: resident.residentId,
    account_id: accountId,
  });
  return r.balance;
}

// ---- Governance ----

/** A vote cast by the resident's owner (the password is re-entered, as cast_vote asks). */
export function vote(resident: Resident, proposalId: string, value: "for" | "against" | "abstain") {
  return resident.client.callOk("governanceservice.cast_vote", {
    proposal_id: proposalId,
    voter_id: resident.residentId,
    vote_value: value,
    password: PASSWORD,
  });
}
