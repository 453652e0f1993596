import type { Entry } from "../../src/rpc/dispatcher.ts";
import { companyData } from "../company-service/support.ts";
import { COMPANY_DATA, invitationOf, shareRow } from "../entity-drafts/support.ts";
import { insertContract, insertKycSession, insertSignature, verifyEmail } from "../residents/support.ts";
import { newKeypair } from "../signatures/support.ts";
import { insertResident as subscribedResident } from "../subscriptions/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { member } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { BANK, fund as fundAccount, balanceOf as treasuryBalance } from "../treasury/support.ts";

/**
 * Issue 27: every method the spec declares `x-spends`, with a way to reach the point where its money leaves a
 * wallet or a treasury account. Residents are the suite's shared fixture (test/support/entities.ts: their
 * registration journey belongs to other issues, and every finance test starts from one); the rest of the state
 * (wallet credits, companies, drafts, treasury accounts and their funds, pending transfers, dividends) is made
 * through public operations. Each scenario builds fresh state, so it can run once per key policy.
 */

export interface World {
  t: TestApp;
  admin: Client;
}

export interface Prepared {
  /** Who calls, and owns the agent key. */
  owner: Client;
  params: Record<string, unknown>;
  /** The balance the money leaves (wallet in USD, or the treasury account in its currency). */
  balance(): Promise<number>;
  /** That balance's currency (default USD: a credit wallet). */
  currency?: string;
}

export type Scenario = (w: World) => Promise<Prepared>;

/** Methods declared x-spends that no agent key can call, and why (the table test checks the list is exact). */
export const UNREACHABLE: Record<string, string> = {
  "creditservice.debit_ai_query": "x-auth session: the first-party assistant bills in the user's own signed-in session",
  "adminregistrationservice.approve_registration": "x-auth admin: an agent key never carries administrator rights",
  "mcpapprovalservice.approve":
    "x-auth session: decided by a signed-in owner; the replayed call is counted as the key's (every scenario's approval case)",
  "mcpapprovalservice.admin_approve": "x-auth admin: as approve, by an administrator's session",
};

export async function walletBalance(t: TestApp, userId: string): Promise<number> {
  const rows = await sql<{ b: string }>(t, `select balance::text as b from credit_balance where user_id = ?`, [userId]);
  return Number(rows[0]?.b ?? 0);
}

const bonus = (w: World, userId: string, amount: number) =>
  w.admin.callOk("creditservice.add_bonus", { user_id: userId, amount, description: "test funds" });

const wallet = (w: World, owner: Client) => () => walletBalance(w.t, owner.userId);

/** A member (fixture resident) whose wallet holds `amount` USD. */
async function funded(w: World, amount = 5000) {
  const m = await member(w.t);
  await bonus(w, m.client.userId, amount);
  return m;
}

/** A company registered through companyservice.create by a funded member (its one holder). */
async function company(w: World) {
  const founder = await funded(w);
  const created = await founder.client.callOk("companyservice.create", { data: companyData(founder.resident) });
  return { founder, companyId: created.company_id };
}

/** A funded founder's company draft with a second member (a holder, or a director), signed by both: all_signed. */
async function signedDraft(w: World, second: "holder" | "director") {
  const founder = await funded(w);
  const other = await member(w.t);
  const row =
    second === "holder"
      ? shareRow(other, 100, "Ann")
      : { name: "Bob", email: other.client.email, resident_id: null, units: 0, role: "director" as const };
  const d = await founder.client.callOk("entitydraftservice.create_draft", {
    entity_type: "company",
    entity_name: `Harbour Software ${Math.random().toString(36).slice(2, 8)} FZC`,
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_DATA),
    shareholders: [shareRow(founder, 500, "Founder"), row],
  });
  await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
  await other.client.callOk("entitydraftservice.accept_invitation", {
    invitation_id: await invitationOf(other, d.sid),
  });
  await founder.client.callOk("entitydraftservice.check_completion", { draft_id: d.sid });
  return { founder, other, draftId: d.sid };
}

async function companyAccount(director: Client, companyId: string, extra: Record<string, unknown> = {}) {
  return director.callOk("treasuryservice.create_company_account", {
    company_id: companyId,
    data: { ...BANK, name: `acct-${Math.random().toString(36).slice(2, 8)}`, ...extra },
  });
}

async function residentAccounts(person: { client: Client; resident: string }, currencies: string[]) {
  const out = [];
  for (const currency of currencies) {
    const data =
      currency === "EUR"
        ? { ...BANK, name: `acct-${Math.random().toString(36).slice(2, 8)}` }
        : { ...BANK, currency, name: `acct-${Math.random().toString(36).slice(2, 8)}` };
    out.push(
      await person.client.callOk("treasuryservice.create_resident_account", { resident_id: person.resident, data }),
    );
  }
  return out;
}

type Contract = ReturnType<typeof insertContract>;
const terms = new WeakMap<TestApp, Contract>();

/** The app's terms of service (one per app: the contract's category and version are unique). */
function termsOf(t: TestApp): Contract {
  const known = terms.get(t);
  if (known) return known;
  const made = insertContract(t, "terms_of_service");
  terms.set(t, made);
  return made;
}

export const SCENARIOS: Record<string, Scenario> = {
  "creditservice.deduct": async (w) => {
    const m = await funded(w, 100);
    const params = { amount: 30, description: "agent spend", reference_type: "ai_call", reference_id: "r-1" };
    return { owner: m.client, params, balance: wallet(w, m.client) };
  },

  "creditservice.activate_resident": async (w) => {
    const owner = await w.t.register(`activate${Math.random()}@example.org`);
    // The registration steps other issues own (email verified, terms signed, KYC done), as test/subscriptions does.
    await verifyEmail(w.t, owner.userId);
    const r = await owner.callOk("residentservice.create", {
      data: { email: owner.email, first_name: "Ada", last_name: "Lovelace", phone: "+255 700 000 001" },
    });
    await insertSignature(w.t, owner.userId, await termsOf(w.t));
    await insertKycSession(w.t, owner.userId, r.resident_id);
    await bonus(w, owner.userId, 1000);
    const keys = newKeypair();
    const params = { plan: "1_year", public_key: keys.publicKey, encrypted_private_key: keys.encrypted };
    return { owner, params, balance: wallet(w, owner) };
  },

  "paymentservice.initiate_renewal": async (w) => {
    const owner = await w.t.register(`renew${Math.random()}@example.org`);
    await subscribedResident(w.t, owner.userId);
    await bonus(w, owner.userId, 1000);
    return { owner, params: { plan: "3_years" }, balance: wallet(w, owner) };
  },

  "paymentservice.initiate_company_renewal": async (w) => {
    const { founder, companyId } = await company(w);
    return {
      owner: founder.client,
      params: { company_id: companyId, plan: "6_months" },
      balance: wallet(w, founder.client),
    };
  },

  "companyservice.create": async (w) => {
    const m = await funded(w);
    const data = companyData(m.resident, { company_type: "startup_fzc", subscription_plan: "monthly" });
    return { owner: m.client, params: { data }, balance: wallet(w, m.client) };
  },

  "entitydraftservice.pay_and_activate": async (w) => {
    const { founder, draftId } = await signedDraft(w, "holder");
    return {
      owner: founder.client,
      params: { draft_id: draftId, subscription_plan: "monthly" },
      balance: wallet(w, founder.client),
    };
  },

  "treasuryoperationsservice.initiate_transfer": async (w) => {
    const m = await member(w.t);
    const [from, to] = await residentAccounts(m, ["EUR", "EUR"]);
    await fundAccount(w.admin, from!, 1000);
    const params = {
      from_account_id: from!.sid,
      to_account_id: to!.sid,
      amount: 40,
      currency: "EUR",
      initiated_by: m.resident,
    };
    return {
      owner: m.client,
      params,
      balance: async () => (await treasuryBalance(w.t, from!.sid)).balance,
      currency: "EUR",
    };
  },

  "treasuryoperationsservice.initiate_external_transfer": async (w) => {
    const m = await member(w.t);
    const [from] = await residentAccounts(m, ["EUR"]);
    await fundAccount(w.admin, from!, 1000);
    const params = {
      from_account_id: from!.sid,
      to_address: "GB82WEST12345698765432",
      to_name: "Charles Babbage",
      amount: 40,
      currency: "EUR",
      initiated_by: m.resident,
    };
    return {
      owner: m.client,
      params,
      balance: async () => (await treasuryBalance(w.t, from!.sid)).balance,
      currency: "EUR",
    };
  },

  "treasuryoperationsservice.approve_transfer": async (w) => {
    const { founder, other: second, draftId } = await signedDraft(w, "director");
    const paid = await founder.client.callOk("entitydraftservice.pay_and_activate", {
      draft_id: draftId,
      subscription_plan: "monthly",
    });
    const companyId = paid.company_id ?? "";
    const from = await companyAccount(founder.client, companyId, { approval_threshold: 1 });
    const to = await companyAccount(founder.client, companyId);
    await fundAccount(w.admin, from, 1000);
    const pending = await founder.client.callOk("treasuryoperationsservice.initiate_transfer", {
      from_account_id: from.sid,
      to_account_id: to.sid,
      amount: 40,
      currency: "EUR",
      initiated_by: founder.resident,
    });
    return {
      owner: second.client,
      params: { transfer_id: pending.sid, approved_by: second.resident },
      balance: async () => (await treasuryBalance(w.t, from.sid)).balance,
      currency: "EUR",
    };
  },

  "treasuryoperationsservice.execute_exchange": async (w) => {
    const m = await member(w.t);
    const [from, to] = await residentAccounts(m, ["EUR", "USD"]);
    await fundAccount(w.admin, from!, 1000);
    const quote = await m.client.callOk("treasuryoperationsservice.get_exchange_quote", {
      from_currency: "EUR",
      to_currency: "USD",
      amount: 40,
    });
    const params = {
      owner_type: "resident",
      owner_id: m.resident,
      from_account_id: from!.sid,
      to_account_id: to!.sid,
      from_amount: 40,
      from_currency: "EUR",
      exchange_rate: quote.exchange_rate,
      initiated_by: m.resident,
    };
    return {
      owner: m.client,
      params,
      balance: async () => (await treasuryBalance(w.t, from!.sid)).balance,
      currency: "EUR",
    };
  },

  "shareholderservice.execute_dividend": async (w) => {
    const { founder, companyId } = await company(w);
    const source = await companyAccount(founder.client, companyId);
    await fundAccount(w.admin, source, 1000);
    const dividend = await founder.client.callOk("shareholderservice.initiate_dividend", {
      company_id: companyId,
      total_amount: 40,
      currency: "EUR",
      source_account_id: source.sid,
      distribution_date: w.t.clock.now().toISOString(),
      initiated_by: founder.resident,
    });
    return {
      owner: founder.client,
      params: { dividend_id: dividend.sid },
      balance: async () => (await treasuryBalance(w.t, source.sid)).balance,
      currency: "EUR",
    };
  },
};

/** The methods the generated registry marks `spends` (aliases once). */
export function declaredSpending(registry: Map<string, Entry>): Entry[] {
  const byName = new Map<string, Entry>();
  for (const entry of registry.values()) if (entry.spends === true) byName.set(entry.name, entry);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Agent key policies: every limit off unless set (the seed's defaults would stop a scenario's own set-up). */
export const UNLIMITED = {
  max_calls_per_hour: 0,
  max_calls_per_day: 0,
  max_transaction_amount: 0,
  daily_spending_limit: 0,
  monthly_spending_limit: 0,
  approval_threshold: 0,
};

export async function callLogOf(t: TestApp, keyId: string) {
  return sql(
    t,
    `select tool_name, result_status, amount::float8 as amount, amount_eur::float8 as amount_eur, approval_id
       from mcp_call_log where api_key_id = ? order by created_at`,
    [keyId],
  );
}

export async function approvalsOf(t: TestApp, keyId: string) {
  return sql(t, `select sid, rpc_method, amount::float8 as amount, status from mcp_approval where api_key_id = ?`, [
    keyId,
  ]);
}

/**
 * Tables whose rows a refused or parked agent call may add: its log row, its call counter, its audit rows, and for
 * a parked one the approval with the owner's notice of it (an inbox message and an email).
 */
const BOOKKEEPING = new Set([
  "mcp_call_log",
  "mcp_usage_counter",
  "user_audit_log",
  "mcp_approval",
  "user_message",
  "email_outbox",
  "mikro_orm_migrations",
]);

/**
 * Everything but the call's own bookkeeping: the row count of every table of the schema, and every balance and
 * subscription period (updated in place). Equal before and after: the call left nothing behind.
 */
export async function footprint(t: TestApp) {
  const tables = await sql<{ name: string }>(
    t,
    `select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    if (BOOKKEEPING.has(name)) continue;
    const [row] = await sql<{ n: string }>(t, `select count(*)::text as n from "${name}"`);
    counts[name] = Number(row?.n);
  }
  return {
    counts,
    wallets: await sql(t, `select user_id, balance::text as b from credit_balance order by user_id`),
    accounts: await sql(t, `select sid, balance::text as b, pending_out::text as p from treasury_account order by sid`),
    residents: await sql(
      t,
      `select resident_id, status, subscription_end_date from digital_resident order by resident_id`,
    ),
    companies: await sql(t, `select company_id, status, subscription_end_date from zone_company order by company_id`),
    transfers: await sql(t, `select sid, status from fund_transfer order by sid`),
    counters: await sql(t, `select name, value::text as v from counter order by name`),
  };
}
