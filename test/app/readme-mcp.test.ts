import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { generateKey } from "../support/helpers.ts";

// Issue 13, newcomer path: the README's MCP example is run as written, so it can never rot.
// The clients' own placeholders in the configurations, written as the README has them.
const KEY_INPUT = ["$", "{input:freezone-key}"].join("");
const KEY_ENV = ["$", "{FREEZONE_API_KEY}"].join("");
const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
const DOCUMENTED = "http://localhost:8080";

/** The fenced block right after the HTML comment `<!-- <marker>... -->`. */
function blockAfter(marker: string, language: string): string {
  const found = new RegExp(`<!-- ${marker}[^>]*-->\\s*\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!found?.[1]) throw new Error(`README.md has no ${language} block marked ${marker}`);
  return found[1];
}

/**
 * Runs a shell block with bash (errors stop it) against `base`: every `curl` keeps its answer in `<dir>/<n>`, in
 * order, so each answer can be checked, while the block's own pipes see it unchanged.
 */
function runShell(block: string, base: string): Promise<{ code: number | null; out: string; answers: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "readme-mcp-"));
  const prelude = [
    "set -euo pipefail",
    `echo 0 > "$ANSWERS/count"`,
    `curl() { local n=$(( $(cat "$ANSWERS/count") + 1 )); echo "$n" > "$ANSWERS/count"; command curl --fail-with-body "$@" | tee "$ANSWERS/$n.answer"; }`,
  ].join("\n");
  const script = `${prelude}\n${block.replaceAll(DOCUMENTED, base)}`;
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { env: { ...process.env, ANSWERS: dir } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => {
      const files = readdirSync(dir).filter((f) => f.endsWith(".answer"));
      const answers = files
        .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
        .map((f) => readFileSync(join(dir, f), "utf8"));
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, out, answers });
    });
  });
}

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  server = createHttpServer(t.app);
  base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("README: the MCP curl example", () => {
  test("is written for the documented default address", () => {
    expect(blockAfter("readme-mcp-example", "sh")).toContain(`BASE=${DOCUMENTED}\n`);
  });

  test("registers, mints a read key with mcp_scope, then initializes, lists tools and calls one on /mcp", async () => {
    const run = await runShell(blockAfter("readme-mcp-example", "sh"), base);
    expect(run.code, run.out).toBe(0);
    const [register, mint, initialize, list, call, ...more] = run.answers.map((a) => JSON.parse(a));
    expect(more).toEqual([]);
    expect(register.result).toMatchObject({ access_token: expect.stringMatching(/^fzs_/), token_type: "Bearer" });
    expect(mint.result).toMatchObject({
      api_key: expect.stringMatching(/^fz_u_/),
      mcp_scope: "read",
      name: "my agent",
    });
    expect(initialize.result).toMatchObject({
      protocolVersion: "2025-06-18",
      capabilities: { tools: expect.any(Object) },
      serverInfo: { name: expect.any(String) },
    });
    // The key's list: read-only tools only, never administrator ones, one page under 300 KB.
    const tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] = list.result.tools;
    expect(tools.map((tool) => tool.name)).toContain("freezone_authservice_me");
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.some((tool) => tool.name.startsWith("freezone_adminservice_"))).toBe(false);
    expect(Buffer.byteLength(run.answers[3]!)).toBeLessThan(300 * 1024);
    expect(run.out).toMatch(/\d+ tools on the first page( \(more after nextCursor\))?, for example freezone_/);
    expect(call.result.isError ?? false).toBe(false);
    expect(call.result.structuredContent).toMatchObject({
      user_id: register.result.user_id,
      email: "agent-owner@example.org",
    });
  });
});

describe("README: the MCP client configuration", () => {
  test("a Streamable HTTP client with the configured URL and X-API-Key header lists and calls tools", async () => {
    const config = JSON.parse(blockAfter("readme-mcp-client-config", "json"));
    const entry = config.servers.freezone;
    expect(entry).toMatchObject({ type: "http", url: `${DOCUMENTED}/mcp` });
    expect(config.inputs.map((i: { id: string }) => i.id)).toEqual(["freezone-key"]);
    const owner = await t.register("client-config@example.org");
    const { key } = await generateKey(owner, { mcp_scope: "read" });
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries(entry.headers as Record<string, string>).map(([name, value]) => [
        name,
        value.replace(KEY_INPUT, key),
      ]),
    );
    expect(headers).toEqual({ "X-API-Key": key });
    const transport = new StreamableHTTPClientTransport(new URL(entry.url.replace(DOCUMENTED, base)), {
      requestInit: { headers },
    });
    const client = new Client({ name: "readme-config", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("freezone_authservice_me");
      const me = await client.callTool({ name: "freezone_authservice_me", arguments: {} });
      expect(me.structuredContent).toMatchObject({ email: "client-config@example.org" });
    } finally {
      await client.close();
    }
  });

  test("the Claude Desktop configuration is valid JSON that bridges to /mcp with the header", () => {
    const block = /`claude_desktop_config\.json`[\s\S]*?```json\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
    const server = JSON.parse(block).mcpServers.freezone;
    expect(server.args).toEqual(["-y", "mcp-remote", `${DOCUMENTED}/mcp`, "--header", `X-API-Key:${KEY_ENV}`]);
    expect(Object.keys(server.env)).toEqual(["FREEZONE_API_KEY"]);
  });
});
