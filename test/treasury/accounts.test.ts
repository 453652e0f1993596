import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  BANK,
  balanceOf,
  companyAccount,
  fund,
  insertCompany,
  insertProxy,
  insertResident,
  type Person,
  person,
  refusedNoWrite,
  residentAccount,
  startTreasuryApp,
  WALLET,
} from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let director: Person;
let member: Person;
let outsider: Person;
let resident: Person;
let admin: Client;

beforeAll(async () => {
  t = await startTreasuryApp();
  const owner = await t.register("trs-acc-owner@example.org");
  company = await insertCompany(t, owner.userId);
  other = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
  member = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  resident = await person(t, null, null);
  admin = await t.admin();
});

const create = (c: Client, data: Record<string, unknown>, companyId = company) =>
  c.call("treasuryservice.create_company_account", { company_id: companyId, data: data as never });

describe("treasuryservice.create_company_account", () => {
  test("a director opens a bank account with a zero balance; kind-specific fields are kept", async () => {
    const a = await companyAccount(director.client, company, { name: "  Main EUR  ", approval_threshold: 500 });
    expect(a).toMatchObject({
      owner_type: "company",
      owner_id: company,
      kind: "bank_account",
      name: "Main EUR",
      currency: "EUR",
      balance: 0,
      pending_out: 0,
      available_balance: 0,
      approval_threshold: 500,
      is_active: true,
      bank_name: "Zanzibar Bank",
      iban: "DE89370400440532013000",
      swift: "DEUTDEFF",
      network: null,
      address: null,
    });
    const w = await companyAccount(director.client, company, WALLET);
    expect(w).toMatchObject({ kind: "crypto_wallet", network: "ethereum", address: WALLET.address, iban: null });
  });

  test("a shareholder is Forbidden and a non-member NotFound, nothing written", async () => {
    await refusedNoWrite(t, () => create(member.client, BANK), -32002, "TreasuryError", "Forbidden");
    await refusedNoWrite(t, () => create(outsider.client, BANK), -32003, "TreasuryError", "NotFound");
  });

  test("an administrator may open one, recorded as an AdminAction; an unknown company is NotFound", async () => {
    const before = await count(t, "admin_action", "action = 'create_treasury_account'");
    await companyAccount(admin, company);
    expect(await count(t, "admin_action", "action = 'create_treasury_account'")).toBe(before + 1);
    await refusedNoWrite(t, () => create(admin, BANK, "FZ-2026-Y999999"), -32003, "TreasuryError", "NotFound");
  });

  test("an inactive company opens no account (InvalidState)", async () => {
    const owner = await t.register("trs-inactive@example.org");
    const dormant = await insertCompany(t, owner.userId, { status: "inactive" });
    // The owning user counts as founder, so the role check passes and the company's state decides.
    await refusedNoWrite(t, () => create(owner, BANK, dormant), -32005, "TreasuryError", "InvalidState");
  });

  test.each([
    ["a crypto wallet without an address", { ...WALLET, address: null }],
    [
      "an ethereum wallet with a non-ethereum address",
      { ...WALLET, address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
    ],
    ["a bank account without iban or account number", { ...BANK, iban: null }],
    ["an IBAN with a wrong check digit", { ...BANK, iban: "DE89370400440532013001" }],
    ["a bank account with a wallet address", { ...BANK, address: "0x52908400098527886E0F7030069857D2E4169EE7" }],
    ["an unknown currency", { ...BANK, currency: "XYZ" }],
    ["a threshold with three decimals", { ...BANK, approval_threshold: 10.005 }],
    ["a blank name", { ...BANK, name: "   " }],
  ])("refuses %s (InvalidInput), nothing written", async (_what, data) => {
    await refusedNoWrite(t, () => create(director.client, data), -32006, "TreasuryError", "InvalidInput");
  });

  test("a balance cannot be set by create (-32602), nor a negative threshold", async () => {
    await refusedNoWrite(t, () => create(director.client, { ...BANK, balance: 100 }), -32602, "TreasuryError", null);
    await refusedNoWrite(
      t,
      () => create(director.client, { ...BANK, approval_threshold: -1 }),
      -32602,
      "TreasuryError",
      null,
    );
  });

  test("a second account with the same name (any case) is AlreadyExists", async () => {
    await companyAccount(director.client, company, { name: "Payroll" });
    await refusedNoWrite(
      t,
      () => create(director.client, { ...BANK, name: "PAYROLL" }),
      -32005,
      "TreasuryError",
      "AlreadyExists",
    );
  });

  // Issue 29 item 6: names compare by their key (src/domain/name-key.ts), the display form is stored as given.
  test("a look-alike of an account's name (zero-width or no-break space) is AlreadyExists", async () => {
    await companyAccount(director.client, company, { name: "Harbour Operating" });
    for (const name of ["Harbour Operating\u200b", "Harbour\u00a0Operating", "harbour  OPERATING"]) {
      await refusedNoWrite(
        t,
        () => create(director.client, { ...BANK, name }),
        -32005,
        "TreasuryError",
        "AlreadyExists",
      );
    }
    const other = await companyAccount(director.client, company, { name: "Harbour\u00a0Operatings" });
    expect(other.name).toBe("Harbour\u00a0Operatings");
    expect(await sql(t, `select name, name_key from treasury_account where sid = ?`, [other.sid])).toEqual([
      { name: "Harbour\u00a0Operatings", name_key: "harbour operatings" },
    ]);
  });
});

describe("company account reads", () => {
  test("members list and read accounts; another company's account is NotFound", async () => {
    const a = await companyAccount(director.client, company);
    const list = await member.client.callOk("treasuryservice.list_company_accounts", { company_id: company });
    expect(list.items.map((i) => i.sid)).toContain(a.sid);
    const sids = list.items.map((i) => i.sid);
    expect([...sids].sort()).toEqual(sids); // oldest first
    expect(
      await member.client.callOk("treasuryservice.get_company_account", { company_id: company, account_id: a.sid }),
    ).toEqual(a);
    const foreign = await companyAccount(outsider.client, other);
    const r = await director.client.call("treasuryservice.get_company_account", {
      company_id: company,
      account_id: foreign.sid,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "TreasuryError", variant: "NotFound" } });
    const tx = await director.client.call("treasuryservice.list_company_transactions", {
      company_id: company,
      account_id: foreign.sid,
    });
    expect(errorOf(tx).code).toBe(-32003);
    const stranger = await outsider.client.call("treasuryservice.list_company_accounts", { company_id: company });
    expect(errorOf(stranger).code).toBe(-32003);
  });

  test("transactions list newest first with balance_after", async () => {
    const a = await companyAccount(director.client, company);
    await fund(admin, a, 10);
    t.clock.advance(1);
    await fund(admin, a, 2.5);
    const tx = await member.client.callOk("treasuryservice.list_company_transactions", {
      company_id: company,
      account_id: a.sid,
    });
    expect(tx.items.map((i) => [i.tx_type, i.amount, i.balance_after, i.status])).toEqual([
      ["credit", 2.5, 12.5, "confirmed"],
      ["credit", 10, 10, "confirmed"],
    ]);
  });
});

describe("treasuryservice.update_company_account", () => {
  test("renames and changes the threshold, never the balance", async () => {
    const a = await companyAccount(director.client, company);
    await fund(admin, a, 40);
    const u = await director.client.callOk("treasuryservice.update_company_account", {
      company_id: company,
      account_id: a.sid,
      data: { name: "Renamed", approval_threshold: 25.5 },
    });
    expect(u).toMatchObject({ name: "Renamed", approval_threshold: 25.5, balance: 40 });
    const bad = await director.client.call("treasuryservice.update_company_account", {
      company_id: company,
      account_id: a.sid,
      data: { balance: 0 } as never,
    });
    expect(errorOf(bad).code).toBe(-32602);
    expect((await balanceOf(t, a.sid)).balance).toBe(40);
  });

  test("deactivating needs a zero balance (InvalidState); an empty account deactivates and takes no funds", async () => {
    const a = await companyAccount(director.client, company);
    await fund(admin, a, 1);
    const off = { company_id: company, account_id: a.sid, data: { is_active: false } };
    await refusedNoWrite(
      t,
      () => director.client.call("treasuryservice.update_company_account", off),
      -32005,
      "TreasuryError",
      "InvalidState",
    );
    const empty = await companyAccount(director.client, company);
    const u = await director.client.callOk("treasuryservice.update_company_account", {
      ...off,
      account_id: empty.sid,
    });
    expect(u.is_active).toBe(false);
    const r = await admin.call("treasuryservice.fund_account", { account_id: empty.sid, amount: 1, currency: "EUR" });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });

  test("a taken name is AlreadyExists; a shareholder is Forbidden; another company's account NotFound", async () => {
    const a = await companyAccount(director.client, company, { name: "Alpha" });
    const b = await companyAccount(director.client, company, { name: "Beta" });
    const call = (c: Client, accountId: string, companyId = company) =>
      c.call("treasuryservice.update_company_account", {
        company_id: companyId,
        account_id: accountId,
        data: { name: "alpha" },
      });
    await refusedNoWrite(t, () => call(director.client, b.sid), -32005, "TreasuryError", "AlreadyExists");
    await refusedNoWrite(t, () => call(member.client, a.sid), -32002, "TreasuryError", "Forbidden");
    await refusedNoWrite(t, () => call(outsider.client, a.sid, other), -32003, "TreasuryError", "NotFound");
  });

  test("renaming to a look-alike of another account's name is AlreadyExists; a rename moves the key", async () => {
    await companyAccount(director.client, company, { name: "Gamma Reserve" });
    const d = await companyAccount(director.client, company, { name: "Delta Reserve" });
    const rename = (name: string) =>
      director.client.call("treasuryservice.update_company_account", {
        company_id: company,
        account_id: d.sid,
        data: { name },
      });
    await refusedNoWrite(t, () => rename("Gamma\u200b Reserve"), -32005, "TreasuryError", "AlreadyExists");
    await refusedNoWrite(t, () => rename("Gamma\u00a0Reserve"), -32005, "TreasuryError", "AlreadyExists");
    const renamed = await director.client.callOk("treasuryservice.update_company_account", {
      company_id: company,
      account_id: d.sid,
      data: { name: "Epsilon\u3000Reserve" },
    });
    expect(renamed.name).toBe("Epsilon\u3000Reserve");
    expect(await sql(t, `select name, name_key from treasury_account where sid = ?`, [d.sid])).toEqual([
      { name: "Epsilon\u3000Reserve", name_key: "epsilon reserve" },
    ]);
  });
});

describe("resident accounts", () => {
  test("the owner opens, lists, reads and changes its accounts", async () => {
    const a = await residentAccount(resident, WALLET);
    expect(a).toMatchObject({ owner_type: "resident", owner_id: resident.resident, balance: 0 });
    const list = await resident.client.callOk("treasuryservice.list_resident_accounts", {
      resident_id: resident.resident,
    });
    expect(list.items.map((i) => i.sid)).toContain(a.sid);
    const u = await resident.client.callOk("treasuryservice.update_resident_account", {
      resident_id: resident.resident,
      account_id: a.sid,
      data: { approval_threshold: 5 },
    });
    expect(u.approval_threshold).toBe(5);
    await fund(admin, a, 3);
    const tx = await resident.client.callOk("treasuryservice.list_resident_transactions", {
      resident_id: resident.resident,
      account_id: a.sid,
    });
    expect(tx.items).toHaveLength(1);
    expect(tx.items[0]).toMatchObject({ tx_type: "credit", amount: 3, balance_after: 3, owner_id: resident.resident });
  });

  test("a proxy holder reads the accounts but neither opens nor changes them (Forbidden)", async () => {
    const a = await residentAccount(resident);
    const agent = await person(t, null, null);
    await insertProxy(t, agent.resident, resident.resident);
    const got = await agent.client.callOk("treasuryservice.get_resident_account", {
      resident_id: resident.resident,
      account_id: a.sid,
    });
    expect(got.sid).toBe(a.sid);
    await refusedNoWrite(
      t,
      () =>
        agent.client.call("treasuryservice.create_resident_account", {
          resident_id: resident.resident,
          data: { ...BANK, name: "proxy made" },
        }),
      -32002,
      "TreasuryError",
      "Forbidden",
    );
    await refusedNoWrite(
      t,
      () =>
        agent.client.call("treasuryservice.update_resident_account", {
          resident_id: resident.resident,
          account_id: a.sid,
          data: { name: "proxy renamed" },
        }),
      -32002,
      "TreasuryError",
      "Forbidden",
    );
  });

  test("a stranger is refused by the binding (-32002); another resident's account is NotFound", async () => {
    const a = await residentAccount(resident);
    const stranger = await person(t, null, null);
    const r = await stranger.client.call("treasuryservice.list_resident_accounts", { resident_id: resident.resident });
    expect(errorOf(r).code).toBe(-32002);
    const g = await stranger.client.call("treasuryservice.get_resident_account", {
      resident_id: stranger.resident,
      account_id: a.sid,
    });
    expect(errorOf(g)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });

  test("a resident that is not active opens no account (InvalidState)", async () => {
    const owner = await t.register("trs-pending@example.org");
    const pending = await insertResident(t, owner.userId, { status: "pending" });
    await refusedNoWrite(
      t,
      () => owner.call("treasuryservice.create_resident_account", { resident_id: pending, data: { ...BANK } as never }),
      -32005,
      "TreasuryError",
      "InvalidState",
    );
  });
});

describe("treasuryservice.fund_account", () => {
  test("credits the account with a confirmed credit row and an AdminAction", async () => {
    const a = await companyAccount(director.client, company);
    const before = await count(t, "admin_action", "action = 'fund_treasury_account'");
    const row = await admin.callOk("treasuryservice.fund_account", {
      account_id: a.sid,
      amount: 0.1,
      currency: "EUR",
      description: "demo",
    });
    expect(row).toMatchObject({
      account_id: a.sid,
      tx_type: "credit",
      amount: 0.1,
      balance_after: 0.1,
      status: "confirmed",
      description: "demo",
      counterparty: "sandbox",
      confirmed_at: t.clock.now().toISOString(),
    });
    await admin.callOk("treasuryservice.fund_account", { account_id: a.sid, amount: 0.2, currency: "EUR" });
    expect(await balanceOf(t, a.sid)).toEqual({ balance: 0.3, pending_out: 0 });
    expect(await count(t, "admin_action", "action = 'fund_treasury_account'")).toBe(before + 2);
    const actions = await sql(t, `select details from admin_action where target_id = ?`, [a.sid]);
    expect(actions).toHaveLength(2);
    expect(JSON.parse(actions[0].details)).toMatchObject({ owner_type: "company", owner_id: company, currency: "EUR" });
  });

  test.each([
    ["zero", 0],
    ["negative", -5],
    ["three decimals", 1.005],
  ])("refuses a %s amount (InvalidAmount), nothing written", async (_w, amount) => {
    const a = await companyAccount(director.client, company);
    await refusedNoWrite(
      t,
      () => admin.call("treasuryservice.fund_account", { account_id: a.sid, amount, currency: "EUR" }),
      -32006,
      "TreasuryError",
      "InvalidAmount",
    );
  });

  test("refuses another currency, an unknown account and a plain user", async () => {
    const a = await companyAccount(director.client, company);
    const call = (c: Client, params: Record<string, unknown>) =>
      c.call("treasuryservice.fund_account", { account_id: a.sid, amount: 1, currency: "EUR", ...params });
    await refusedNoWrite(t, () => call(admin, { currency: "USD" }), -32006, "TreasuryError", "CurrencyMismatch");
    await refusedNoWrite(t, () => call(admin, { account_id: "nope" }), -32003, "TreasuryError", "NotFound");
    await refusedNoWrite(t, () => call(director.client, {}), -32002, "TreasuryError", "AdminOnly");
  });
});

describe("fund_account outside the sandbox", () => {
  test("is Forbidden when sandbox funding is off", async () => {
    const prod = await startTreasuryApp();
    prod.config.treasury.sandboxFunding = false;
    const owner = await prod.register("trs-prod-owner@example.org");
    const c = await insertCompany(prod, owner.userId);
    const a = await companyAccount(owner, c);
    const boss = await prod.admin();
    await refusedNoWrite(
      prod,
      () => boss.call("treasuryservice.fund_account", { account_id: a.sid, amount: 1, currency: "EUR" }),
      -32002,
      "TreasuryError",
      "Forbidden",
    );
  });
});
