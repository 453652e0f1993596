/**
 * The MCP case of the bench: `tools/call` of the trivial read-only tool on /mcp against the same method on /rpc,
 * both with the same agent key (personal API key with mcp_scope readwrite, no call limits, X-API-Key), same
 * validation. Target: MCP >= 0.8x /rpc, by req/s and by CPU per request.
 *
 * `mcpSpecs(app, agentKey, method, params)` gives the two load specs; `npm run bench` runs them in every round. `npx
 * tsx bench/mcp.ts` runs just this comparison on its own server and schema (`--duration S --warmup S --connections
 * N`, BENCH_DATABASE_URL as in run.ts, schema bench_mcp_<pid>).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BENCH_SECRETS, type Child, killAll, startMain } from "./lib/children.ts";
import { benchKeys } from "./lib/keys.ts";
import { describe, type LoadSpec, runLoad } from "./lib/load.ts";
import { MCP_OVER_RPC_TARGET } from "./lib/report.ts";
import { call, dropSchema } from "./lib/setup.ts";

const METHOD = "pricingservice.get_shareholder_fee_rate";
const PARAMS = { company_type: "startup_fzc", shareholder_count: 4 };

/** The MCP tool name of a JSON-RPC method (generated/mcp-tools.json). */
function toolOf(method: string): string {
  const tools = JSON.parse(readFileSync(join(import.meta.dirname, "..", "generated", "mcp-tools.json"), "utf8")) as {
    name: string;
    method: string;
  }[];
  const tool = tools.find((t) => t.method === method);
  if (!tool) throw new Error(`${method} is not an MCP tool`);
  return tool.name;
}

export async function mcpSpecs(
  app: Child,
  agentKey: string,
  method = METHOD,
  params: object = PARAMS,
): Promise<{ rpcWithKey: LoadSpec; mcpCall: LoadSpec }> {
  const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  const mcpBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: toolOf(method), arguments: params },
  });
  const keyHeader = { "x-api-key": agentKey };
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
      name: "/rpc, agent key",
      server: app,
      path: "/rpc",
      body: rpcBody,
      headers: keyHeader,
      expectBody: rpcSample.text,
    },
    mcpCall: {
      name: "MCP tools/call, agent key",
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
  const schema = `bench_mcp_${process.pid}`;
  await dropSchema(databaseUrl, schema);
  const app = await startMain("our server", {
    env: {
      ...BENCH_SECRETS,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: "info",
      NODE_ENV: "production",
    },
  });
  const specs = await mcpSpecs(app, (await benchKeys(app.url)).agent);
  const rpc = await runLoad(specs.rpcWithKey, settings);
  console.log(describe(rpc));
  const mcp = await runLoad(specs.mcpCall, settings);
  console.log(describe(mcp));
  const ratio = Math.round((mcp.reqPerS / rpc.reqPerS) * 100) / 100;
  const byCpu = Math.round((rpc.cpuUsPerRequest.server / mcp.cpuUsPerRequest.server) * 100) / 100;
  const verdict = (value: number) => (value >= MCP_OVER_RPC_TARGET ? "PASS" : "MISS");
  console.log(
    `MCP tools/call / rpc with the same key: ${ratio}x (target >= ${MCP_OVER_RPC_TARGET}x: ${verdict(ratio)})`,
  );
  console.log(`by server CPU per request (less sensitive to other load on the machine): ${byCpu}x (${verdict(byCpu)})`);
  await app.stop();
  await dropSchema(databaseUrl, schema);
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
