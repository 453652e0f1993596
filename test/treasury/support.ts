import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";

/** Set-up from the shared fixtures (test/support/entities.ts); money enters through fund_account. */
export {
  insertCompany,
  insertProxy,
  insertResident,
  insertRole,
  person,
  startFinanceApp as startTreasuryApp,
} from "../support/entities.ts";

export type Person = Awaited<ReturnType<typeof import("../support/entities.ts").person>>;

export const BANK = {
  kind: "bank_account" as const,
  name: "Operating EUR",
  currency: "EUR",
  bank_name: "Zanzibar Bank",
  iban: "DE89370400440532013000",
  swift: "DEUTDEFF",
};

export const WALLET = {
  kind: "crypto_wallet" as const,
  name: "USDC wallet",
  currency: "USDC",
  network: "ethereum",
  address: "0x52908400098527886E0F7030069857D2E4169EE7",
};

/** The kind's complete example (a crypto wallet's fields are not a bank account's). */
const baseOf = (data: Record<string, unknown>) => (data["kind"] === "crypto_wallet" ? WALLET : BANK);

export async function companyAccount(
  director: Client,
  companyId: string,
  data: Record<string, unknown> = {},
): Promise<TreasuryAccountResult> {
  return director.callOk("treasuryservice.create_company_account", {
    company_id: companyId,
    data: { ...baseOf(data), name: `acct-${randomBytes(4).toString("hex")}`, ...data },
  });
}

export async function residentAccount(
  owner: Person,
  data: Record<string, unknown> = {},
): Promise<TreasuryAccountResult> {
  return owner.client.callOk("treasuryservice.create_resident_account", {
    resident_id: owner.resident,
    data: { ...baseOf(data), name: `acct-${randomBytes(4).toString("hex")}`, ...data },
  });
}

export async function fund(admin: Client, account: { sid: string; currency: string }, amount: number) {
  return admin.callOk("treasuryservice.fund_account", { account_id: account.sid, amount, currency: account.currency });
}

export async function balanceOf(t: TestApp, accountId: string): Promise<{ balance: number; pending_out: number }> {
  const [row] = await sql<{ balance: string; pending_out: string }>(
    t,
    `select balance::text as balance, pending_out::text as pending_out from treasury_account where sid = ?`,
    [accountId],
  );
  return { balance: Number(row?.balance), pending_out: Number(row?.pending_out) };
}

/** Everything a treasury call may write: compared before and after a refusal. */
export async function writes(t: TestApp) {
  return {
    accounts: await sql(t, `select * from "treasury_account" order by sid`),
    transactions: await count(t, "treasury_transaction"),
    transfers: await sql(t, `select sid, status from "fund_transfer" order by sid`),
    exchanges: await count(t, "exchange_transaction"),
    quotes: await sql(t, `select sid, exchange_id from "exchange_quote" order by sid`),
    adminActions: await count(t, "admin_action"),
  };
}

/** The reply is the error (code, type, variant) and nothing was written. */
export async function refusedNoWrite(
  t: TestApp,
  call: () => Promise<CallReply<unknown>>,
  code: number,
  type: "TreasuryError" | "TreasuryOperationsError",
  variant: string | null,
): Promise<void> {
  const before = await writes(t);
  const err = errorOf(await call());
  expect(err.code, JSON.stringify(err)).toBe(code);
  if (variant !== null) expect(err.data, JSON.stringify(err)).toMatchObject({ type, variant });
  expect(await writes(t)).toEqual(before);
}
