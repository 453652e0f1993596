import { beforeEach, describe, expect, test } from "vitest";
import { sweepLapsedCompanies } from "../../src/services/shared/subscriptions/lapse-sweep.ts";
import { balanceOf, datesOf, fund, insertCompany, renewalStart } from "../subscriptions/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";

// The company status lifecycle around subscriptions: the lapse sweep moves an active company past its end to
// inactive (with a CompanyMessage); an inactive company may be renewed, which makes it active again, and is refused
// every business operation meanwhile. The test clock starts 2026-11-23T10:00Z; the fixture company ends 2026-12-01.

const DAY_S = 86_400;

let t: TestApp;
let admin: Client;
let ada: Client;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
});

const sweep = () => sweepLapsedCompanies(t.app.runtime, t.clock.now());
const statusOf = async (id: string) => (await datesOf(t, "zone_company", id))?.status;
const messageTitles = async (id: string) =>
  (
    await sql<{ title: string; message_type: string }>(
      t,
      `select title, message_type from company_message where company_id = ? order by created_at`,
      [id],
    )
  ).map((m) => `${m.title}/${m.message_type}`);

describe("lapse sweep", () => {
  test("moves active companies past their end to inactive once, with an alert message; others stay", async () => {
    const lapsing = await insertCompany(t, ada.userId);
    const later = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-12-20T00:00:00.000Z") });
    const open = await insertCompany(t, ada.userId, { subscription_end_date: null });
    const suspended = await insertCompany(t, ada.userId, { status: "suspended" });
    const voided = await insertCompany(t, ada.userId, { status: "voided", void_reason: "x" });
    expect(await sweep()).toEqual([]);
    t.clock.set("2026-12-01T00:00:00.000Z");
    expect(await sweep()).toEqual([lapsing]);
    expect(await statusOf(lapsing)).toBe("inactive");
    expect(await messageTitles(lapsing)).toEqual(["Subscription lapsed/alert"]);
    for (const id of [later, open]) expect(await statusOf(id)).toBe("active");
    expect(await statusOf(suspended)).toBe("suspended");
    expect(await statusOf(voided)).toBe("voided");
    t.clock.advance(DAY_S);
    expect(await sweep()).toEqual([]);
    expect(await messageTitles(lapsing)).toHaveLength(1);
  });

  test("three concurrent sweeps move a lapsed company once and post one message", async () => {
    const id = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-11-20T00:00:00.000Z") });
    const runs = await Promise.all([sweep(), sweep(), sweep()]);
    expect(runs.flat().filter((moved) => moved === id)).toEqual([id]);
    expect(await messageTitles(id)).toEqual(["Subscription lapsed/alert"]);
  });

  test("an inactive company is refused business operations (here a company message) and may still renew", async () => {
    const id = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-11-20T00:00:00.000Z") });
    expect(await sweep()).toEqual([id]);
    const post = await ada.call("messageservice.create_company_message", {
      company_id: id,
      title: "Hello",
      body: "Still here?",
      category: "general",
    });
    expect(errorOf(post)).toMatchObject({ code: -32005, data: { variant: "InvalidState", status: "inactive" } });
    expect(await messageTitles(id)).toEqual(["Subscription lapsed/alert"]);
  });
});

describe("renewal of an inactive company", () => {
  test("renews from now and makes it active again", async () => {
    const id = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-11-20T00:00:00.000Z") });
    expect(await sweep()).toEqual([id]);
    await fund(admin, ada.userId, 1000);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: id, plan: "1_month" });
    expect(info).toMatchObject({
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2026-12-23T10:00:00.000Z",
      amount_charged: 90,
    });
    expect(await datesOf(t, "zone_company", id)).toMatchObject({ status: "active", end: "2026-12-23T10:00:00.000Z" });
    expect(await balanceOf(t, ada.userId)).toBe(910);
    expect(await sweep()).toEqual([]);
  });

  test("a short wallet leaves it inactive, nothing charged", async () => {
    const id = await insertCompany(t, ada.userId, { status: "inactive" });
    await fund(admin, ada.userId, 10);
    const r = await ada.call("paymentservice.initiate_company_renewal", { company_id: id, plan: "1_month" });
    expect(errorOf(r)).toMatchObject({ data: { variant: "InsufficientFunds" } });
    expect(await statusOf(id)).toBe("inactive");
    expect(await balanceOf(t, ada.userId)).toBe(10);
  });
});
