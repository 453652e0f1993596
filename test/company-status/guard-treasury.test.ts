import { beforeAll, describe, expect, test } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import type { Client, TestApp } from "../support/app.ts";
import {
  BANK,
  companyAccount,
  fund,
  insertCompany,
  person,
  residentAccount,
  startTreasuryApp,
  writes,
} from "../treasury/support.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on treasury writes touching a company's accounts: a voided or suspended company opens
// and changes no account, is not funded, and its accounts send, receive, approve and exchange nothing (InvalidState
// naming the status, nothing written); a pending transfer may still be cancelled; an active company goes on.

let t: TestApp;
let admin: Client;
let company: string;
let dirA: { client: Client; resident: string };
let dirB: { client: Client; resident: string };
let payee: { client: Client; resident: string };
beforeAll(async () => {
  t = await startTreasuryApp();
  admin = await t.admin();
  const owner = await t.register("guard-trs-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dirA = await person(t, company, "director");
  dirB = await person(t, company, "director");
  payee = await person(t, null, null);
});

const transfer = (from: TreasuryAccountResult, to: TreasuryAccountResult, amount: number, who = dirA) =>
  who.client.call("treasuryoperationsservice.initiate_transfer", {
    from_account_id: from.sid,
    to_account_id: to.sid,
    amount,
    currency: from.currency,
    initiated_by: who.resident,
  });

describe("treasury writes and the company status", () => {
  test.each(BLOCKED)("a %s company: accounts, funding, transfers and exchanges are refused", async (status) => {
    await setStatus(t, company, "active");
    const eur = await companyAccount(dirA.client, company, { currency: "EUR", approval_threshold: 50 });
    const eur2 = await companyAccount(dirA.client, company, { currency: "EUR" });
    const usd = await companyAccount(dirA.client, company, { currency: "USD" });
    const incoming = await residentAccount(payee, { currency: "EUR" });
    await fund(admin, eur, 200);
    await fund(admin, incoming, 100);
    const pending = await dirA.client.callOk("treasuryoperationsservice.initiate_transfer", {
      from_account_id: eur.sid,
      to_account_id: eur2.sid,
      amount: 60,
      currency: "EUR",
      initiated_by: dirA.resident,
    });
    const q = await dirA.client.callOk("treasuryoperationsservice.get_exchange_quote", {
      from_currency: "EUR",
      to_currency: "USD",
      amount: 10,
    });
    await setStatus(t, company, status);
    const refused = (type: string, call: () => Promise<any>) => refusedByStatus(() => writes(t), call, type, status);
    const a = dirA.client;
    await refused("TreasuryError", () =>
      a.call("treasuryservice.create_company_account", { company_id: company, data: { ...BANK, name: "new" } }),
    );
    await refused("TreasuryError", () =>
      a.call("treasuryservice.update_company_account", {
        company_id: company,
        account_id: eur.sid,
        data: { name: "x" },
      }),
    );
    await refused("TreasuryError", () =>
      admin.call("treasuryservice.fund_account", { account_id: eur.sid, amount: 5, currency: "EUR" }),
    );
    await refused("TreasuryOperationsError", () => transfer(eur, eur2, 5));
    await refused("TreasuryOperationsError", () => transfer(incoming, eur2, 5, payee));
    await refused("TreasuryOperationsError", () =>
      a.call("treasuryoperationsservice.initiate_external_transfer", {
        from_account_id: eur.sid,
        to_address: "GB82WEST12345698765432",
        to_name: "Acme Ltd",
        amount: 5,
        currency: "EUR",
        initiated_by: dirA.resident,
      }),
    );
    await refused("TreasuryOperationsError", () =>
      dirB.client.call("treasuryoperationsservice.approve_transfer", {
        transfer_id: pending.sid,
        approved_by: dirB.resident,
      }),
    );
    await refused("TreasuryOperationsError", () =>
      a.call("treasuryoperationsservice.execute_exchange", {
        owner_type: "company",
        owner_id: company,
        from_account_id: eur.sid,
        to_account_id: usd.sid,
        from_amount: q.from_amount,
        from_currency: "EUR",
        exchange_rate: q.exchange_rate,
        initiated_by: dirA.resident,
      }),
    );
    const cancelled = await a.callOk("treasuryoperationsservice.cancel_transfer", { transfer_id: pending.sid });
    expect(cancelled.status).toBe("cancelled");
  });

  test("an active company's accounts move money", async () => {
    await setStatus(t, company, "active");
    const from = await companyAccount(dirA.client, company, { currency: "EUR" });
    const to = await companyAccount(dirA.client, company, { currency: "EUR" });
    await fund(admin, from, 20);
    const r = await transfer(from, to, 5);
    expect("result" in r && r.result.status).toBe("completed");
  });
});
