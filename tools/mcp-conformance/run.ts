/**
 * `npm run mcp:conformance`: the official MCP conformance server suite against a started server.
 *
 * Starts the app on an in-memory PGlite, registers a user and mints a readwrite key through the real operations,
 * and puts a small proxy in front of /mcp that adds the key (the suite cannot send headers; our /mcp refuses
 * anonymous requests). The suite needs Node >= 22: it runs on the `node` binary of this folder's own install
 * (package.json here), so the project's Node stays what it is. Extra arguments go to the suite
 * (`npm run mcp:conformance -- --scenario tools-list`). Exit code: the suite's, with baseline.yml listing the
 * scenarios a tools-only server cannot pass.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createApp } from "../../src/app/create-app.ts";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { loadConfig } from "../../src/config.ts";

const HERE = import.meta.dirname;
const SUITE = join(HERE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const NODE22 = join(HERE, "node_modules", ".bin", "node");

function install(): void {
  if (existsSync(SUITE) && existsSync(NODE22)) return;
  const done = spawnSync("npm", ["ci", "--prefix", HERE, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (done.status !== 0) throw new Error("installing the conformance suite failed");
}

async function rpc(base: string, method: string, params: unknown, token?: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: Record<string, string>; error?: unknown };
  if (!body.result) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Forwards every request to the app, adding X-API-Key. */
function keyProxy(target: number, key: string) {
  return createServer((req, res) => {
    const upstream = request(
      {
        host: "127.0.0.1",
        port: target,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, "x-api-key": key },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
}

async function main(): Promise<number> {
  install();
  const config = loadConfig({ LOG_LEVEL: "warn" }, { pgliteDir: null, host: "127.0.0.1" });
  const app = await createApp(config, { log: pino({ level: "warn" }) });
  const server = createHttpServer(app);
  const port = await listen(server, 0, "127.0.0.1");
  const base = `http://127.0.0.1:${port}`;
  const password = "conformance passphrase 2026";
  const user = await rpc(base, "authservice.register", { email: "conformance@example.org", password });
  const key = await rpc(
    base,
    "apikeyservice.generate_personal",
    { name: "conformance", password, mcp_scope: "readwrite", max_calls_per_hour: 0, max_calls_per_day: 0 },
    user.access_token,
  );
  const proxy = keyProxy(port, key.api_key ?? "");
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  const output = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
  const args = [
    SUITE,
    "server",
    "--url",
    `http://127.0.0.1:${proxyPort}/mcp`,
    "--expected-failures",
    join(HERE, "baseline.yml"),
    "-o",
    output,
    ...process.argv.slice(2),
  ];
  console.log(`conformance suite against ${base}/mcp (through a key-adding proxy); results in ${output}`);
  const child = await new Promise<number>((resolve) => {
    spawn(NODE22, args, { stdio: "inherit" }).on("exit", (code) => resolve(code ?? 1));
  });
  proxy.close();
  server.close();
  await app.close();
  return child;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
