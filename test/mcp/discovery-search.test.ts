import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SEARCH_TOOL } from "../../src/mcp/discovery.ts";
import { nameWords, ToolIndex } from "../../src/mcp/discovery-index.ts";
import { segment, stem, terms } from "../../src/mcp/discovery-text.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, type TestKey } from "../support/helpers.ts";
import { DISCOVERY_HOLDOUT, DISCOVERY_JOBS, type DiscoveryJob } from "./discovery-jobs.ts";
import { callRaw, type Served, serveOnPort } from "./support.ts";

describe("text", () => {
  test("stemming meets plurals, -ing and -ed forms; short and listed words stay", () => {
    expect(["invoices", "invoicing", "invoiced", "invoice"].map(stem)).toEqual(Array(4).fill("invoic"));
    expect(["transferred", "transfers", "transfer"].map(stem)).toEqual(Array(3).fill("transfer"));
    expect(["companies", "company"].map(stem)).toEqual(["company", "company"]);
    expect(["kyc", "status", "tax"].map(stem)).toEqual(["kyc", "status", "tax"]);
  });

  test("terms drop stop words and split camelCase and snake_case", () => {
    expect(terms("How do I get my invoiceId for the send_invoice call")).toEqual([
      "invoic",
      "id",
      "send",
      "invoic",
      "call",
    ]);
  });

  test("run-together service names split into known words, fewest pieces first", () => {
    const vocabulary = new Set(["treasury", "operations", "kyc", "artifact", "payload", "tree"]);
    expect(segment("treasuryoperations", vocabulary)).toEqual(["treasury", "operations"]);
    expect(segment("kycartifactpayload", vocabulary)).toEqual(["kyc", "artifact", "payload"]);
    expect(segment("zzz", vocabulary)).toEqual(["zzz"]);
    expect(nameWords("freezone_treasuryoperationsservice_get_exchange_quote", vocabulary)).toBe(
      "treasury operations get exchange quote",
    );
  });

  test("ranking: the name outweighs the description; synonyms reach the catalogue's word at half weight", () => {
    const tool = (name: string, title: string, description: string) => ({
      tool: { name, title, description, inputSchema: { type: "object" as const, properties: {} } },
      readOnly: false,
      generic: false,
    });
    const index = new ToolIndex(
      [
        tool("freezone_xservice_archive_contract", "Put away", "Moves a record aside."),
        tool("freezone_yservice_store", "Keep", "Stores a contract in the archive."),
        tool("freezone_zservice_other", "Other", "Nothing here."),
      ],
      { shelve: ["archive"] },
    );
    const hits = index.search("archive a contract", 10, () => true);
    expect(hits.map((h) => h.name)).toEqual(["freezone_xservice_archive_contract", "freezone_yservice_store"]);
    expect(index.queryTerms("shelve it")).toEqual(
      new Map([
        ["shelv", 1],
        ["archiv", 0.5],
      ]),
    );
    expect(index.search("archive", 10, (t) => t.name !== "freezone_xservice_archive_contract")).toHaveLength(1);
  });
});

describe("the 30 jobs through freezone_search_tools", () => {
  let t: TestApp;
  let served: Served;
  let key: TestKey;

  beforeAll(async () => {
    t = await startTestApp();
    served = await serveOnPort(t.app.hono);
    const owner = await t.register(`jobs${Math.random()}@example.org`);
    key = await generateKey(owner, { mcp_discovery_mode: true, max_calls_per_hour: 0, max_calls_per_day: 0 });
  });
  afterAll(async () => {
    await served.close();
    await t.close();
  });

  async function measure(jobs: DiscoveryJob[]) {
    const misses: { job: DiscoveryJob; got: string[] }[] = [];
    for (const job of jobs) {
      const r = await callRaw(served.url, key.key, SEARCH_TOOL, { query: job.query, limit: 5 });
      const got: string[] = r.result.structuredContent.results.map((h: { name: string }) => h.name);
      if (!got.includes(job.expected)) misses.push({ job, got });
    }
    return { found: jobs.length - misses.length, misses };
  }

  test("the expected tool is in the top 5 for at least 27 of 30", async () => {
    const { found, misses } = await measure(DISCOVERY_JOBS);
    console.log(`discovery jobs: expected tool in the top 5 for ${found} of ${DISCOVERY_JOBS.length}`);
    for (const m of misses) console.log(`  miss: "${m.job.query}" -> ${m.job.expected}; got ${m.got.join(", ")}`);
    expect(found).toBeGreaterThanOrEqual(27);
  });

  test("holdout jobs the tuning never saw: reported, and at least 9 of 12", async () => {
    const { found, misses } = await measure(DISCOVERY_HOLDOUT);
    console.log(`discovery holdout: expected tool in the top 5 for ${found} of ${DISCOVERY_HOLDOUT.length}`);
    for (const m of misses) console.log(`  miss: "${m.job.query}" -> ${m.job.expected}; got ${m.got.join(", ")}`);
    expect(found).toBeGreaterThanOrEqual(9);
  });
});
