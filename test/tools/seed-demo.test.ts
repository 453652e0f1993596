import { afterAll, beforeAll, expect, test } from "vitest";
import { seedThrough } from "../../tools/cli/seed-demo.ts";
import { DEMO_PASSWORD, PEOPLE } from "../../tools/seed-demo/plan.ts";
import type { SeedLine } from "../../tools/seed-demo/seed.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";

// Issue 19 "Operations": seed-demo fills the zone through the public operations, and a second run creates nothing.
let t: TestApp;
let first: SeedLine[];
const progressSetting = process.env["FZ_PROGRESS"];

beforeAll(async () => {
  process.env["FZ_PROGRESS"] = "0"; // the progress lines would only fill the test output
  t = await startTestApp();
  first = await seedThrough(t.app.fetch, "http://test");
});
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

test("the first run creates the demo users, residents, keys, drafts and a pending approval", async () => {
  expect(first.filter((l) => l.created)).toHaveLength(first.length);
  expect(first).toHaveLength(PEOPLE.length * 2 + 5);
  for (const person of PEOPLE) {
    const as = await signIn(person.email);
    const residents = (await as("residentservice.list", { page: 1, page_size: 10 })).result;
    expect(residents.items).toHaveLength(1);
    expect(residents.items[0]).toMatchObject({ email: person.email, status: "pending" });
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

  const company = (await alice("entitydraftservice.list_drafts")).result.items;
  expect(company).toHaveLength(1);
  expect(company[0]).toMatchObject({ entity_name: "Harbour Software FZC", entity_type: "company" });
  const carol = await signIn("carol@demo.freezone.example");
  const coop = (await carol("entitydraftservice.list_drafts")).result.items;
  expect(coop[0]).toMatchObject({ entity_name: "Makers Cooperative", entity_type: "cooperative" });
  for (const draft of [company[0], coop[0]]) {
    expect(draft.completed_signatures).toBe(draft.total_required_signatures);
  }
});

test("a second run creates nothing and reports everything as there", async () => {
  const count = async (table: string) => {
    const [row] = await sql(t, `select count(*) as n from "${table}"`);
    return Number(row.n);
  };
  const tables = ["user", "digital_resident", "api_key", "entity_draft", "entity_invitation", "mcp_approval"];
  const before = await Promise.all(tables.map(count));
  const second = await seedThrough(t.app.fetch, "http://test");
  expect(second.filter((l) => l.created)).toEqual([]);
  expect(second).toHaveLength(first.length);
  expect(await Promise.all(tables.map(count))).toEqual(before);
});
