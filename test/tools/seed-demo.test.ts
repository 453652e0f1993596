import { afterAll, beforeAll, expect, test } from "vitest";
import { type SeedOptions, seedThrough } from "../../tools/cli/seed-demo.ts";
import { DEMO_PASSWORD, PEOPLE } from "../../tools/seed-demo/plan.ts";
import type { SeedLine } from "../../tools/seed-demo/seed.ts";
import { PASSWORD, type TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";

// Issue 19 "Operations": seed-demo fills the zone through the public operations (JSON-RPC and the sandbox
// providers' signed webhooks): active residents, a company and a cooperative formed from signed drafts, invoices, a
// proposal with votes, an agent key with a pending approval; a second run creates nothing.
let t: TestApp;
let options: SeedOptions;
let first: SeedLine[];
const progressSetting = process.env["FZ_PROGRESS"];

beforeAll(async () => {
  process.env["FZ_PROGRESS"] = "0"; // the progress lines would only fill the test output
  t = await startFinanceApp();
  await t.admin("admin@example.org");
  options = {
    admin: { email: "admin@example.org", password: PASSWORD },
    sandbox: { secret: t.config.webhookSecret, now: t.clock.now },
  };
  first = await seedThrough(t.app.fetch, "http://test", options);
}, 60_000);
afterAll(async () => {
  if (progressSetting === undefined) delete process.env["FZ_PROGRESS"];
  else process.env["FZ_PROGRESS"] = progressSetting;
  await t.close();
});

const signIn = async (email: string) => {
  const r = await t.callOk("authservice.login", { email, password: DEMO_PASSWORD });
  if (!("access_token" in r)) throw new Error("no session");
  return (method: string, params: unknown = {}) => t.rpc(method, params, { authorization: `Bearer ${r.access_token}` });
};

const byDescription = (items: { description: string; status: string }[]) =>
  Object.fromEntries(items.map((i) => [i.description, i.status]));

test("the first run makes active residents, keys, a company, a cooperative, invoices, a vote and an approval", async () => {
  expect(first.filter((l) => !l.created)).toEqual([]);
  // users, residents and activations (4 each), 2 keys, 2 drafts, the approval, 2 entities, 3 invoices, a
  // proposal and 3 votes
  expect(first).toHaveLength(PEOPLE.length * 3 + 2 + 2 + 1 + 2 + 3 + 1 + 3);
  const texts = first.map((l) => l.text);
  expect(texts).toContainEqual(
    expect.stringMatching(
      /^resident FZ-\d{4}-RA\d{6} of bob@demo\.freezone\.example active: email verified, KYC approved by the sandbox, 1_year paid from the wallet after a sandbox top-up of 150 USD$/,
    ),
  );
  expect(texts).toContainEqual(
    expect.stringMatching(
      /^company "Harbour Software FZC" FZ-\d{4}-Y\d{6} active: monthly plan paid by alice@demo\.freezone\.example after a sandbox top-up of \d+ USD$/,
    ),
  );
  for (const person of PEOPLE) {
    const as = await signIn(person.email);
    expect((await as("authservice.me")).result.email_verified).toBe(true);
    const residents = (await as("residentservice.list", { page: 1, page_size: 10 })).result;
    expect(residents.items).toHaveLength(1);
    expect(residents.items[0]).toMatchObject({ email: person.email, status: "active", subscription_plan: "1_year" });
    expect((await as("registrationservice.check_kyc_complete")).result).toMatchObject({ kyc_complete: true });
  }
  const alice = await signIn("alice@demo.freezone.example");
  const keys = (await alice("apikeyservice.list_personal")).result.items;
  expect(keys.map((k: { name: string }) => k.name).sort()).toEqual(["demo agent key", "demo script key"]);
  expect(keys.find((k: { name: string }) => k.name === "demo agent key")).toMatchObject({
    mcp_scope: "readwrite",
    approval_required_tools: "freezone_residentservice_update",
  });
  const pending = (await alice("mcpapprovalservice.list_pending")).result.items;
  expect(pending).toHaveLength(1);
  expect(pending[0]).toMatchObject({ tool_name: "freezone_residentservice_update", status: "pending" });

  const [companyDraft] = (await alice("entitydraftservice.list_drafts")).result.items;
  expect(companyDraft).toMatchObject({ entity_name: "Harbour Software FZC", entity_type: "company", status: "active" });
  const company = (await alice("companyservice.get", { company_id: companyDraft.company_id })).result;
  expect(company).toMatchObject({ name: "Harbour Software FZC", company_type: "startup_fzc", status: "active" });
  const invoices = (await alice("invoiceservice.list", { fzc_id: companyDraft.company_id })).result.items;
  expect(byDescription(invoices)).toEqual({
    "Website build, phase 1": "paid",
    "Support retainer, December": "sent",
    "Hosting, first quarter": "draft",
  });

  const carol = await signIn("carol@demo.freezone.example");
  const [coopDraft] = (await carol("entitydraftservice.list_drafts")).result.items;
  expect(coopDraft).toMatchObject({ entity_name: "Makers Cooperative", entity_type: "cooperative", status: "active" });
  const coop = (await carol("companyservice.get", { company_id: coopDraft.company_id })).result;
  expect(coop).toMatchObject({ name: "Makers Cooperative", company_type: "coop_standard_fzc", status: "active" });
  const proposals = (await carol("governanceservice.list_proposals", { company_id: coopDraft.company_id })).result;
  expect(proposals.items).toHaveLength(1);
  const proposal = (await carol("governanceservice.get_proposal", { proposal_id: proposals.items[0].sid })).result;
  // Left open: the votes are in, the totals are stamped when the proposal is tallied after voting ends.
  expect(proposal).toMatchObject({
    title: "Buy a shared laser cutter",
    status: "active",
    total_issued_power_snapshot: 3,
    total_voted: 0,
  });
  const resident = async (email: string) =>
    (await (await signIn(email))("residentservice.list", { page: 1, page_size: 1 })).result.items[0].resident_id;
  const votes = Object.fromEntries(
    proposal.votes.map((v: { voter_id: string; vote_value: string; voting_power: number }) => [
      v.voter_id,
      `${v.vote_value}:${v.voting_power}`,
    ]),
  );
  expect(votes).toEqual({
    [await resident("carol@demo.freezone.example")]: "for:1",
    [await resident("dave@demo.freezone.example")]: "for:1",
    [await resident("alice@demo.freezone.example")]: "abstain:1",
  });
});

test("a second run creates nothing and reports everything as there", async () => {
  const count = async (table: string) => {
    const [row] = await sql(t, `select count(*) as n from "${table}"`);
    return Number(row.n);
  };
  const tables = [
    "user",
    "digital_resident",
    "api_key",
    "entity_draft",
    "entity_invitation",
    "mcp_approval",
    "kyc_session",
    "payment",
    "credit_transaction",
    "zone_company",
    "zone_invoice",
    "proposal",
    "vote",
  ];
  const before = await Promise.all(tables.map(count));
  const second = await seedThrough(t.app.fetch, "http://test", options);
  expect(second.filter((l) => l.created)).toEqual([]);
  expect(second).toHaveLength(first.length);
  expect(await Promise.all(tables.map(count))).toEqual(before);
});

test("without an administrator or the webhook secret residents stay pending; a later run with them finishes", async () => {
  t = await startFinanceApp();
  const lines = await seedThrough(t.app.fetch, "http://test", { admin: null, sandbox: null });
  expect(lines[0]?.text).toBe("administrator: none signs in; email verification skipped");
  const pending = lines.filter((l) => l.text.includes("stays pending"));
  expect(pending).toHaveLength(PEOPLE.length);
  expect(pending[0]?.text).toContain("email not verified (no administrator session to read the sandbox outbox)");
  expect(lines.at(-1)?.text).toBe("skipped: company, cooperative, invoices and proposal (residents not active)");
  const companies = async () => Number((await sql(t, `select count(*) as n from "zone_company"`))[0].n);
  expect(await companies()).toBe(0);

  // A wrong webhook secret: the server refuses the sandbox's verdict, and the report says so.
  await t.admin("admin@example.org");
  const admin = { email: "admin@example.org", password: PASSWORD };
  const wrong = { secret: "not-the-server-secret", now: t.clock.now };
  const refused = await seedThrough(t.app.fetch, "http://test", { admin, sandbox: wrong });
  expect(refused.filter((l) => l.text.includes("stays pending: KYC verdict refused: WEBHOOK_SECRET"))).toHaveLength(
    PEOPLE.length,
  );

  // With both, the drafts signed while the residents were pending are paid and the rest is made.
  const sandbox = { secret: t.config.webhookSecret, now: t.clock.now };
  const resumed = await seedThrough(t.app.fetch, "http://test", { admin, sandbox });
  expect(resumed.filter((l) => l.text.includes("pending") && !l.text.includes("approval"))).toEqual([]);
  expect(resumed.filter((l) => l.created)).toHaveLength(PEOPLE.length + 2 + 3 + 1 + 3);
  expect(await sql(t, `select name, status from "zone_company" order by name`)).toEqual([
    { name: "Harbour Software FZC", status: "active" },
    { name: "Makers Cooperative", status: "active" },
  ]);
});
