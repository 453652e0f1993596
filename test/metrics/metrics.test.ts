import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMetricsServer } from "../../src/app/metrics-http.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { generateKey } from "../support/helpers.ts";

// Issue 19 "Operations": GET /metrics (docs/deploy.md "Metrics").
let t: TestApp;
let admin: Client;
let user: Client;
const FEE = { company_type: "startup_fzc" as const, shareholder_count: 4 };
const FEE_METHOD = "pricingservice.get_shareholder_fee_rate";
const FEE_TOOL = "freezone_pricingservice_get_shareholder_fee_rate";

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  user = await t.register("metrics-user@example.org");
});
afterAll(() => t.close());

async function scrape(headers: Record<string, string>): Promise<{ status: number; type: string | null; text: string }> {
  const res = await t.app.fetch(new Request("http://test/metrics", { headers }));
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

const asAdmin = async () => {
  const r = await scrape({ authorization: `Bearer ${admin.token}` });
  expect(r.status).toBe(200);
  return r.text;
};

/** The value of the one series `name{labels}` (labels in prom-client's order), or null when absent. */
function series(text: string, name: string, labels: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(" ") + 1));
}

const mcpCall = (key: string, name: string, args: unknown) =>
  t.app.fetch(
    new Request("http://test/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": key },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
  );

describe("GET /metrics: what it counts", () => {
  test("calls per method and outcome, with a latency histogram whose count is the calls'", async () => {
    const before = await asAdmin();
    const okBefore = series(before, "freezone_rpc_calls_total", `method="${FEE_METHOD}",outcome="ok"`) ?? 0;
    for (let i = 0; i < 3; i++) await t.callOk(FEE_METHOD, FEE);
    const bad = await t.rpc(FEE_METHOD, { company_type: "startup_fzc" });
    expect(bad.error?.code).toBe(-32602);
    const denied = await user.rpc("adminservice.list_admin_actions", {});
    expect(denied.error?.code).toBe(-32002);
    const variant = denied.error?.data.variant as string;

    const text = await asAdmin();
    expect(series(text, "freezone_rpc_calls_total", `method="${FEE_METHOD}",outcome="ok"`)).toBe(okBefore + 3);
    expect(series(text, "freezone_rpc_calls_total", `method="${FEE_METHOD}",outcome="InvalidParams"`)).toBe(1);
    expect(
      series(text, "freezone_rpc_calls_total", `method="adminservice.list_admin_actions",outcome="${variant}"`),
    ).toBe(1);
    const count = series(text, "freezone_rpc_call_duration_seconds_count", `method="${FEE_METHOD}"`);
    expect(count).toBe(okBefore + 4);
    expect(series(text, "freezone_rpc_call_duration_seconds_bucket", `le="+Inf",method="${FEE_METHOD}"`)).toBe(count);
    expect(series(text, "freezone_rpc_call_duration_seconds_sum", `method="${FEE_METHOD}"`)).toBeGreaterThan(0);
    expect(text).toContain("# TYPE freezone_rpc_call_duration_seconds histogram");
  });

  test("unknown method names share one series; unparsable bodies count under (invalid)", async () => {
    await t.rpc("nosuch.method_a");
    await t.rpc("nosuch.method_b");
    await t.post("/rpc", "{not json");
    const text = await asAdmin();
    expect(text).not.toContain("nosuch.method_a");
    expect(series(text, "freezone_rpc_calls_total", `method="(unknown)",outcome="MethodNotFound"`)).toBe(2);
    expect(series(text, "freezone_rpc_calls_total", `method="(invalid)",outcome="ParseError"`)).toBe(1);
  });

  test("batch entries count per method", async () => {
    const before = series(await asAdmin(), "freezone_rpc_calls_total", `method="${FEE_METHOD}",outcome="ok"`) ?? 0;
    const batch = [1, 2, 3, 4, 5].map((id) => ({ jsonrpc: "2.0", id, method: FEE_METHOD, params: FEE }));
    expect((await t.post("/rpc", batch)).body).toHaveLength(5);
    const after = series(await asAdmin(), "freezone_rpc_calls_total", `method="${FEE_METHOD}",outcome="ok"`);
    expect(after).toBe(before + 5);
  });

  test("MCP tool calls per tool and status, and the pending approvals gauge", async () => {
    const plain = await generateKey(user, { blocked_tool_patterns: "freezone_pricingservice_get_all_pricing" });
    expect((await mcpCall(plain.key, FEE_TOOL, FEE)).status).toBe(200);
    await mcpCall(plain.key, "freezone_pricingservice_get_all_pricing", {});
    const gated = await generateKey(user, { approval_required_tools: "freezone_pricingservice_*" });
    for (let i = 0; i < 2; i++) {
      const r = (await (await mcpCall(gated.key, FEE_TOOL, FEE)).json()) as { result: { structuredContent?: unknown } };
      expect(JSON.stringify(r.result)).toContain("pending_approval");
    }
    // An agent key's call on /rpc goes through the same policy and is counted with the tools.
    const viaRpc = await t.rpc(FEE_METHOD, FEE, { "x-api-key": gated.key });
    expect(viaRpc.error?.data.variant).toBe("ApprovalRequired");

    const text = await asAdmin();
    const tool = (name: string, status: string) =>
      series(text, "freezone_mcp_tool_calls_total", `tool="${name}",status="${status}"`);
    expect(tool(FEE_TOOL, "ok")).toBe(1);
    expect(tool(FEE_TOOL, "approval_required")).toBe(3);
    expect(tool("freezone_pricingservice_get_all_pricing", "refused")).toBe(1);
    expect(text).toMatch(/^freezone_mcp_approvals_pending 3$/m);
  });

  test("database pool state and process metrics", async () => {
    const text = await asAdmin();
    const backend = usingPostgres ? "postgresql" : "pglite";
    const max = text.match(new RegExp(`^freezone_db_pool_max\\{backend="${backend}"\\} (\\d+)$`, "m"));
    expect(Number(max?.[1])).toBe(usingPostgres ? 10 : 1);
    for (const state of ["used", "free", "pending_acquire", "pending_create"]) {
      expect(series(text, "freezone_db_pool_connections", `backend="${backend}",state="${state}"`)).not.toBeNull();
    }
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});

describe("GET /metrics: who may read it", () => {
  test("anonymous, a user's session, an invalid token: refused without metrics", async () => {
    const anonymous = await scrape({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain("freezone_");
    const userSession = await scrape({ authorization: `Bearer ${user.token}` });
    expect(userSession.status).toBe(403);
    expect(userSession.text).not.toContain("freezone_");
    const invalid = await scrape({ authorization: "Bearer not-a-session" });
    expect(invalid.status).toBe(401);
    expect(invalid.text).not.toContain("freezone_");
  });

  test("API keys are refused, an administrator's too, as X-API-Key or as a Bearer token", async () => {
    const key = await generateKey(admin, { mcp_scope: null });
    for (const headers of [{ "x-api-key": key.key }, { authorization: `Bearer ${key.key}` }]) {
      const r = await scrape(headers);
      expect(r.status).toBe(403);
      expect(r.text).not.toContain("freezone_");
    }
  });

  test("an administrator's session reads the Prometheus text", async () => {
    const r = await scrape({ authorization: `Bearer ${admin.token}` });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.text).toContain("# TYPE freezone_rpc_calls_total counter");
  });

  test("the metrics port serves without credentials; the public port still refuses", async () => {
    const server = await startMetricsServer(t.app.metrics, t.app.runtime.log, { port: 0, host: "127.0.0.1" });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("# TYPE freezone_rpc_calls_total counter");
      expect((await fetch(`http://127.0.0.1:${server.port}/rpc`)).status).toBe(404);
      expect((await scrape({})).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
