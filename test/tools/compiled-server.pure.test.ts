import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isStale, ROOT } from "../../tools/build.mjs";
import { freePort } from "../../tools/cold-start.ts";

// `npm start` as a newcomer runs it: the compiled bundle (dist/main.js, with CommonJS packages required, see
// tools/build-require.mjs), a fresh embedded data directory staged beside module loading and PGlite's WebAssembly
// compiled ahead (tools/pglite-early.mjs), the console served from dist/console. CI builds dist/ at `npm ci`; a
// stale build is not rebuilt here (a rebuild empties dist/ under other test files), the test says so instead.
const stale = isStale();
const PASSWORD = "a long passphrase 2026";

async function rpc(base: string, method: string, params: unknown, token?: string) {
  const response = await fetch(`${base}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } };
}

describe.skipIf(stale)("the compiled server (npm start)", () => {
  let root: string;
  let server: ChildProcess;
  let base: string;
  let output = "";

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "fz-compiled-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [join(ROOT, "tools", "start.mjs")], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        DATABASE_URL: "",
        PGLITE_DIR: join(root, "data"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`npm start exited (${server.exitCode}):\n${output}`);
      const health = await fetch(`${base}/health`).catch(() => null);
      if (health?.ok) break;
      if (Date.now() > deadline) throw new Error(`no /health within 90 s:\n${output}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server.once("exit", done));
      server.kill("SIGTERM");
      await exited;
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("registers a user and answers with the session (reads and writes the staged database)", async () => {
    const registered = await rpc(base, "authservice.register", { email: "first@example.org", password: PASSWORD });
    expect(registered.error).toBeUndefined();
    const token = registered.result?.["access_token"] as string;
    const me = await rpc(base, "authservice.me", {}, token);
    expect(me.result?.["email"]).toBe("first@example.org");
    const again = await rpc(base, "authservice.register", { email: "first@example.org", password: PASSWORD });
    expect(again.error?.code).toBeTypeOf("number");
  });

  test("the data directory was made from the template and no staging copy is left", () => {
    expect(existsSync(join(root, "data", "PG_VERSION"))).toBe(true);
    expect(readdirSync(root).filter((name) => name.includes(".staging-"))).toEqual([]);
  });

  test("serves the OpenRPC document and the console", async () => {
    const discover = await rpc(base, "rpc.discover", {});
    expect(discover.result?.["openrpc"]).toMatch(/^1\.3/);
    const console = await fetch(`${base}/console/`);
    expect(console.status).toBe(200);
    expect(await console.text()).toContain("<html");
  });
});

describe.runIf(stale)("the compiled server (npm start)", () => {
  test.skip("dist/ is older than the sources: run `npm run build` to test the compiled server", () => {});
});
