import { DemoError, type RpcClient, type Session, Skipped } from "./client.ts";
import { residentKeypair } from "./keys.ts";
import { DEMO_PASSWORD, type DemoPerson, RESIDENT_FUNDS, RESIDENT_PLAN } from "./plan.ts";
import { postKycVerdict, postPaymentSucceeded, type Sandbox } from "./sandbox.ts";

/** What the seeding steps share: the public endpoint, the administrator's session and the sandbox providers. */
export interface SeedContext {
  rpc: RpcClient;
  /** Null when no administrator signs in (then steps needing one are skipped and say so). */
  admin: Session | null;
  /** Null when the webhook secret is not known (then KYC verdicts and payments are skipped and say so). */
  sandbox: Sandbox | null;
}

export async function signIn(rpc: RpcClient, person: DemoPerson) {
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

export async function ensureResident(session: Session, person: DemoPerson) {
  const mine = await session.ok("residentservice.list", { page: 1, page_size: 10 });
  const existing = mine.items[0];
  if (existing) return { residentId: existing.resident_id, status: existing.status, created: false };
  const { email, first_name, last_name, phone } = person;
  const made = await session.ok("residentservice.create", { data: { email, first_name, last_name, phone } });
  return { residentId: made.resident_id, status: made.status, created: true };
}

/** The verification link the server emailed at registration, read from the sandbox outbox by the administrator. */
async function verifyEmail(ctx: SeedContext, session: Session, email: string): Promise<void> {
  if ((await session.ok("authservice.me")).email_verified) return;
  if (!ctx.admin) throw new Skipped("email not verified (no administrator session to read the sandbox outbox)");
  const outbox = await ctx.admin.ok("adminservice.list_outbox", { to_email: email, limit: 50 });
  const codes = outbox.items
    .filter((m) => m.template === "verify_email")
    .map((m) => /enter this code: (\S+)/.exec(m.body_text)?.[1]);
  for (const token of codes) {
    if (token && "result" in (await ctx.rpc.call("authservice.verify_email", { token }))) return;
  }
  throw new DemoError(`no live verification email for ${email} in the outbox`);
}

/** Adds a sandbox mobile-money top-up when the wallet holds less than `amount` USD. */
export async function ensureFunds(ctx: SeedContext, session: Session, amount: number): Promise<number> {
  const { balance } = await session.ok("creditservice.get_balance");
  if (balance >= amount) return 0;
  if (!ctx.sandbox) throw new Skipped("wallet not funded (the webhook secret is unknown: set WEBHOOK_SECRET)");
  const topup = Math.ceil(amount - balance);
  const order = await session.ok("creditservice.initiate_topup", { amount: topup, provider: "mobilepay" });
  if (!order.mobilepay_order_id) throw new DemoError("the top-up named no mobile-money order");
  await postPaymentSucceeded(ctx.rpc, ctx.sandbox, order.mobilepay_order_id, topup);
  return topup;
}

/**
 * A pending resident made active by the registration steps a newcomer goes through: the email verified, the
 * required contracts signed, KYC approved by the sandbox provider's signed verdict, the plan paid from the wallet
 * after a sandbox top-up (creditservice.activate_resident, with a client-made keypair). Returns what it did.
 */
export async function activate(ctx: SeedContext, session: Session, person: DemoPerson, residentId: string) {
  await verifyEmail(ctx, session, person.email);
  const contracts = (await ctx.rpc.ok("contractservice.get_required_contracts", { entity_type: "resident" })).items;
  const name = `${person.first_name} ${person.last_name}`;
  for (const contract of contracts) {
    await session.ok("contractservice.sign_contract", {
      contract_id: contract.sid,
      entity_type: "user",
      entity_name: name,
      entity_id: "",
    });
  }
  const keys = residentKeypair(DEMO_PASSWORD, person.email);
  const kyc = await session.ok("registrationservice.check_kyc_complete");
  if (!kyc.kyc_complete) {
    if (!ctx.sandbox) throw new Skipped("KYC not done (the webhook secret is unknown: set WEBHOOK_SECRET)");
    const opened = await session.ok("kycservice.start_verification", {
      resident_id: residentId,
      public_key: keys.publicKey,
    });
    await postKycVerdict(ctx.rpc, ctx.sandbox, opened.kyc_url.split("/").pop() ?? "");
  }
  const topup = await ensureFunds(ctx, session, RESIDENT_FUNDS);
  const done = await session.ok("creditservice.activate_resident", {
    plan: RESIDENT_PLAN,
    public_key: keys.publicKey,
    encrypted_private_key: keys.encryptedPrivateKey,
  });
  if (!done.activated) throw new DemoError(`${residentId} not activated: ${done.missing_steps.join(", ")} missing`);
  return { topup, charged: done.amount_charged };
}
