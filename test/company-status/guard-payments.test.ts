import { beforeAll, describe, expect, test } from "vitest";
import { insertInvoice } from "../payments/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, startFinanceApp } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on a company's payment receiving: a voided or suspended company connects no receiving
// account and its invoices cannot be paid to it (InvalidState naming the status, nothing written, nothing reaches
// the provider); an active company's can.

let t: TestApp;
let owner: Client;
let payer: Client;
let company: string;
let invoice: string;
beforeAll(async () => {
  t = await startFinanceApp({ paymentSweepIntervalS: 0 });
  owner = await t.register("guard-pay-owner@example.org");
  payer = await t.register("guard-pay-payer@example.org");
  company = await insertCompany(t, owner.userId, {
    cardpsp_connected_account_id: "acct_guard",
    payment_receiving_enabled: true,
  });
  invoice = await insertInvoice(t, {
    fzc_id: company,
    sender_user_id: owner.userId,
    sender_entity_type: "company",
    sender_entity_id: company,
    recipient_user_id: payer.userId,
  });
});

const writes = async () => ({
  company: await sql(t, `select * from "zone_company" where company_id = ?`, [company]),
  payments: await count(t, "payment"),
  invoices: await sql(t, `select sid, status from "zone_invoice" order by sid`),
});
const connect = () =>
  owner.call("paymentservice.connect_payment_receiving", {
    entity_type: "company",
    entity_id: company,
    provider: "mobilepay",
  });
const pay = () => payer.call("paymentservice.initiate_invoice_payment", { invoice_id: invoice, provider: "cardpsp" });

describe("payment receiving and the company status", () => {
  test.each(BLOCKED)("a %s company connects no receiving and is paid no invoice", async (status) => {
    await setStatus(t, company, status);
    await refusedByStatus(writes, connect, "PaymentError", status);
    await refusedByStatus(writes, pay, "PaymentError", status);
  });

  test("an active company connects receiving and its invoice is paid", async () => {
    await setStatus(t, company, "active");
    expect("result" in (await connect())).toBe(true);
    const p = await pay();
    expect("result" in p && p.result.status).toBe("pending");
  });
});
