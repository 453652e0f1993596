/**
 * The MCP case of the bench: `tools/call` of a trivial read-only tool on /mcp against the same method on /rpc,
 * both with the same personal API key (X-API-Key), same validation, same run. Target: MCP >= 0.6x /rpc.
 *
 * `mcpSpecs(app)` gives the two load specs for bench/run.ts; `npx tsx bench/mcp.ts` runs just this comparison on
 * its own server and schema (`--duration S --warmup S --connections N`, BENCH_DATABASE_URL as in run.ts).
 */
import { parseArgs } from "node:util";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BENCH_SECRETS, type Child, killAll, startMain } from "./lib/children.ts";
import { describe, type LoadSpec, runLoad } from "./lib/load.ts";
import { call, dropSchema } from "./lib/setup.ts";

const METHOD = "pricingservice.get_shareholder_fee_rate";
const TOOL = "freezone_pricingservice_get_shareholder_fee_rate";
const PARAMS = { company_type: "single_fzc", shareholder_count: 1 };
const PASSWORD = "Bench-run MCP correct horse battery 42";

/** A user and a readwrite key without call limits (the bench would hit the default 60 calls an hour at once). */
async function benchKey(base: string): Promise<string> {
  const reg = await call(`${base}/rpc`, {
    jsonrpc: "2.0",
    id: 1,
    method: "authservice.register",
    params: { email: `bench-mcp-${Date.now()}@example.com`, password: PASSWORD },
  });
  const token = (reg.json.result as { access_token?: string } | undefined)?.access_token;
  if (!token) throw new Error(`authservice.register failed: ${reg.text}`);
  const key = await call(
    `${base}/rpc`,
    {
      jsonrpc: "2.0",
      id: 2,
      method: "apikeyservice.generate_personal",
      params: {
        name: "bench",
        password: PASSWORD,
        mcp_scope: "readwrite",
        max_calls_per_hour: 0,
        max_calls_per_day: 0,
      },
    },
    { authorization: `Bearer ${token}` },
  );
  const apiKey = (key.json.result as { api_key?: string } | undefined)?.api_key;
  if (!apiKey) throw new Error(`apikeyservice.generate_personal failed: ${key.text}`);
  return apiKey;
}

export async function mcpSpecs(app: Child): Promise<{ rpcWithKey: LoadSpec; mcpCall: LoadSpec }> {
  const apiKey = await benchKey(app.url);
  const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: METHOD, params: PARAMS });
  const mcpBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: TOOL, arguments: PARAMS },
  });
  const keyHeader = { "x-api-key": apiKey };
  const mcpHeaders = {
    ...keyHeader,
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
  };
  const rpcSample = await call(`${app.url}/rpc`, rpcBody, keyHeader);
  const mcpSample = await call(`${app.url}/mcp`, mcpBody, mcpHeaders);
  const tool = mcpSample.json.result as { isError?: boolean; structuredContent?: unknown } | undefined;
  if (!rpcSample.json.result || !tool || tool.isError) {
    throw new Error(`the MCP bench method does not answer a result: /rpc ${rpcSample.text} /mcp ${mcpSample.text}`);
  }
  if (JSON.stringify(tool.structuredContent) !== JSON.stringify(rpcSample.json.result)) {
    throw new Error("tools/call and /rpc answer different results");
  }
  return {
    rpcWithKey: {
      name: "/rpc with API key",
      server: app,
      path: "/rpc",
      body: rpcBody,
      headers: keyHeader,
      expectBody: rpcSample.text,
    },
    mcpCall: {
      name: "MCP tools/call",
      server: app,
      path: "/mcp",
      body: mcpBody,
      headers: mcpHeaders,
      expectBody: mcpSample.text,
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      connections: { type: "string", default: "32" },
    },
  });
  const settings = {
    connections: Number(values.connections),
    warmupS: Number(values.warmup),
    durationS: Number(values.duration),
  };
  const databaseUrl = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
  await dropSchema(databaseUrl, "bench_mcp");
  const app = await startMain("our server", {
    env: {
      ...BENCH_SECRETS,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: "bench_mcp",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
    },
  });
  const specs = await mcpSpecs(app);
  const rpc = await runLoad(specs.rpcWithKey, settings);
  console.log(describe(rpc));
  const mcp = await runLoad(specs.mcpCall, settings);
  console.log(describe(mcp));
  const ratio = Math.round((mcp.reqPerS / rpc.reqPerS) * 100) / 100;
  const byCpu = Math.round((rpc.cpuUsPerRequest.server / mcp.cpuUsPerRequest.server) * 100) / 100;
  console.log(`MCP tools/call / rpc with the same key: ${ratio}x (target >= 0.6x: ${ratio >= 0.6 ? "PASS" : "MISS"})`);
  console.log(`by server CPU per request (less sensitive to other load on the machine): ${byCpu}x`);
  await app.stop();
}

if (process.argv[1]?.endsWith("mcp.ts")) {
  main()
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(() => {
      killAll();
      process.exit();
    });
}
