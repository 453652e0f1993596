import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import {
  cents,
  companyBalance,
  formCompany,
  fundAccount,
  journeyCast,
  openCompanyAccount,
  openResidentAccount,
  residentBalance,
  rolesOf,
  signInAgain,
} from "./support.ts";

// Seed 001, treasury: a company's transfer above its account's approval threshold waits, reserved, for a second
// director's approval (four eyes: the initiator never approves), then settles; a transfer below it settles at
// once; and an exchange at a quoted rate moves exact cents between the company's USD and EUR accounts. Public API
// only (see support.ts).

expectReached({
  FundTransferStatus: ["pending", "completed", "cancelled", "processing", "failed"],
  ExchangeStatus: ["completed"],
  TreasuryTransactionStatus: ["confirmed", "pending", "failed"],
  CompanyRoleKind: ["founder", "shareholder", "director"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Mwangi" },
  bob: { first_name: "Bob", last_name: "Okafor" },
  carol: { first_name: "Carol", last_name: "Haddad" },
});

const STEPS = [
  "form the company and appoint a second director",
  "open the company's USD account (threshold 500) and fund it",
  "a supplier resident opens a USD account",
  "a transfer of 800 waits for approval, reserved",
  "the initiator cannot approve her own transfer",
  "the second director approves: it settles",
  "a transfer of 200 settles at once",
  "a transfer of 600 waits, then its initiator cancels it: the reservation is released",
  "open the company's EUR account",
  "quote USD to EUR",
  "execute the exchange at the quoted rate",
  "the quote is used once",
  "an external payout below the threshold: processing, settled by the sweep",
  "a payout the provider fails at settlement: amount and fee returned",
] as const;

test(`treasury: transfer above the threshold with approval, and an exchange (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, carol } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("form the company and appoint a second director");
  const { companyId } = await formCompany(zone, { resident: alice, units: 700 }, [{ resident: bob, units: 300 }]);
  await alice.client.callOk("governanceservice.appoint_director", {
    company_id: companyId,
    resident_id: bob.residentId,
    appointed_by: alice.residentId,
  });
  expect((await rolesOf(bob.client, companyId))[bob.name]).toEqual(["director", "shareholder"]);

  step("open the company's USD account (threshold 500) and fund it");
  const usd = await openCompanyAccount(alice, companyId, "USD", 500);
  await fundAccount(zone, usd, 2000, "USD");
  expect(await companyBalance(bob, companyId, usd)).toEqual({ balance: 2000, available: 2000, pending_out: 0 });

  step("a supplier resident opens a USD account");
  const supplier = await openResidentAccount(carol, "USD");

  step("a transfer of 800 waits for approval, reserved");
  const transfer = await alice.client.callOk("treasuryoperationsservice.initiate_transfer", {
    from_account_id: usd,
    to_account_id: supplier,
    amount: 800,
    currency: "USD",
    initiated_by: alice.residentId,
    reference: "Invoice 17, fit-out",
  });
  expect(transfer).toMatchObject({ status: "pending", requires_approval: true, approval_threshold: 500 });
  expect(await companyBalance(bob, companyId, usd)).toEqual({ balance: 2000, available: 1200, pending_out: 800 });
  expect(await residentBalance(carol, supplier)).toBe(0);

  step("the initiator cannot approve her own transfer");
  const own = await alice.client.call("treasuryoperationsservice.approve_transfer", {
    transfer_id: transfer.sid,
    approved_by: alice.residentId,
  });
  expect("error" in own && own.error.data?.variant).toBe("SelfApproval");
  // The recipient, no member of the company, cannot approve either.
  const outsider = await carol.client.call("treasuryoperationsservice.approve_transfer", {
    transfer_id: transfer.sid,
    approved_by: carol.residentId,
  });
  expect("error" in outsider).toBe(true);
  expect(await companyBalance(bob, companyId, usd)).toEqual({ balance: 2000, available: 1200, pending_out: 800 });

  step("the second director approves: it settles");
  const approved = await bob.client.callOk("treasuryoperationsservice.approve_transfer", {
    transfer_id: transfer.sid,
    approved_by: bob.residentId,
  });
  expect(approved).toMatchObject({ status: "completed", approved_by: bob.residentId });
  expect(await companyBalance(alice, companyId, usd)).toEqual({ balance: 1200, available: 1200, pending_out: 0 });
  expect(await residentBalance(carol, supplier)).toBe(800);
  const again = await bob.client.call("treasuryoperationsservice.approve_transfer", {
    transfer_id: transfer.sid,
    approved_by: bob.residentId,
  });
  expect("error" in again && again.error.code).toBe(-32005);

  step("a transfer of 200 settles at once");
  const small = await alice.client.callOk("treasuryoperationsservice.initiate_transfer", {
    from_account_id: usd,
    to_account_id: supplier,
    amount: 200,
    currency: "USD",
    initiated_by: alice.residentId,
  });
  expect(small).toMatchObject({ status: "completed", requires_approval: false });
  expect((await companyBalance(alice, companyId, usd)).balance).toBe(1000);
  expect(await residentBalance(carol, supplier)).toBe(1000);

  step("a transfer of 600 waits, then its initiator cancels it: the reservation is released");
  const unwanted = await alice.client.callOk("treasuryoperationsservice.initiate_transfer", {
    from_account_id: usd,
    to_account_id: supplier,
    amount: 600,
    currency: "USD",
    initiated_by: alice.residentId,
  });
  expect(unwanted.status).toBe("pending");
  expect(await companyBalance(bob, companyId, usd)).toEqual({ balance: 1000, available: 400, pending_out: 600 });
  const cancelled = await alice.client.callOk("treasuryoperationsservice.cancel_transfer", {
    transfer_id: unwanted.sid,
  });
  expect(cancelled.status).toBe("cancelled");
  expect(await companyBalance(bob, companyId, usd)).toEqual({ balance: 1000, available: 1000, pending_out: 0 });
  expect(await residentBalance(carol, supplier)).toBe(1000);

  step("open the company's EUR account");
  const eur = await openCompanyAccount(bob, companyId, "EUR");

  step("quote USD to EUR");
  const quote = await alice.client.callOk("treasuryoperationsservice.get_exchange_quote", {
    from_currency: "USD",
    to_currency: "EUR",
    amount: 300,
  });
  expect(quote).toMatchObject({ from_amount: 300, fee_percentage: 0.5, fee_amount: 1.5 });
  expect(quote.to_amount).toBe(cents((300 - 1.5) * quote.exchange_rate));

  step("execute the exchange at the quoted rate");
  const exchange = await alice.client.callOk("treasuryoperationsservice.execute_exchange", {
    owner_type: "company",
    owner_id: companyId,
    from_account_id: usd,
    to_account_id: eur,
    from_amount: 300,
    from_currency: "USD",
    exchange_rate: quote.exchange_rate,
    initiated_by: alice.residentId,
  });
  expect(exchange).toMatchObject({
    status: "completed",
    from_amount: 300,
    to_currency: "EUR",
    to_amount: quote.to_amount,
    fee_amount: 1.5,
  });
  expect((await companyBalance(bob, companyId, usd)).balance).toBe(700);
  expect((await companyBalance(bob, companyId, eur)).balance).toBe(quote.to_amount);
  const history = await bob.client.callOk("treasuryservice.list_company_transactions", {
    company_id: companyId,
    account_id: usd,
  });
  expect(history.items.map((r) => [r.tx_type, r.amount]).sort()).toEqual(
    [
      ["credit", 2000],
      ["debit", 800],
      ["debit", 200],
      ["debit", 300],
    ].sort(),
  );

  step("the quote is used once");
  const reused = await alice.client.call("treasuryoperationsservice.execute_exchange", {
    owner_type: "company",
    owner_id: companyId,
    from_account_id: usd,
    to_account_id: eur,
    from_amount: 300,
    from_currency: "USD",
    exchange_rate: quote.exchange_rate,
    initiated_by: alice.residentId,
  });
  expect("error" in reused && reused.error.data?.variant).toBe("AlreadyUsed");
  expect((await companyBalance(bob, companyId, usd)).balance).toBe(700);

  step("an external payout below the threshold: processing, settled by the sweep");
  const IBAN = "GB82WEST12345698765432";
  const payout = (to_name: string, amount: number) =>
    alice.client.callOk("treasuryoperationsservice.initiate_external_transfer", {
      from_account_id: usd,
      to_address: IBAN,
      to_name,
      amount,
      currency: "USD",
      initiated_by: alice.residentId,
      reference: `Payout to ${to_name}`,
    });
  const rowsOf = async (transferRef: string) => {
    const h = await bob.client.callOk("treasuryservice.list_company_transactions", {
      company_id: companyId,
      account_id: usd,
    });
    return h.items.filter((r) => r.reference === transferRef).map((r) => [r.tx_type, r.amount, r.status]);
  };
  const paid = await payout("Coastal Supplies Ltd", 100);
  // 0.5 % fee: 0.50; the total leaves the account at once, the row pending until the provider settles.
  expect(paid).toMatchObject({ status: "processing", fee_amount: 0.5 });
  expect(await companyBalance(bob, companyId, usd)).toMatchObject({ balance: 599.5 });
  expect(await rowsOf("Payout to Coastal Supplies Ltd")).toEqual([["debit", 100.5, "pending"]]);
  zone.t.clock.advance(60);
  await zone.t.app.runJobs();
  await signInAgain(zone, alice, bob);
  const settled = await bob.client.callOk("treasuryoperationsservice.list_transfers", { account_id: usd });
  expect(settled.items.find((x) => x.sid === paid.sid)?.status).toBe("completed");
  expect(await rowsOf("Payout to Coastal Supplies Ltd")).toEqual([["debit", 100.5, "confirmed"]]);

  step("a payout the provider fails at settlement: amount and fee returned");
  const failing = await payout("Closed Account [fail]", 50);
  expect(failing.status).toBe("processing");
  expect((await companyBalance(bob, companyId, usd)).balance).toBe(549.25);
  zone.t.clock.advance(60);
  await zone.t.app.runJobs();
  await signInAgain(zone, alice, bob);
  const failed = await bob.client.callOk("treasuryoperationsservice.list_transfers", { account_id: usd });
  expect(failed.items.find((x) => x.sid === failing.sid)?.status).toBe("failed");
  expect((await rowsOf("Payout to Closed Account [fail]")).sort()).toEqual(
    [
      ["debit", 50.25, "failed"],
      ["credit", 50.25, "confirmed"],
    ].sort(),
  );
  expect((await companyBalance(bob, companyId, usd)).balance).toBe(599.5);

  expect(done).toEqual([...STEPS]);
});
