import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { type ServedApp, serveTestApp } from "./support.ts";

// `npm run sdk -- --from <url> --out <dir>` against a server in this process (from a file: from-file.pure.test.ts).
const REPO = join(import.meta.dirname, "..", "..");
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const TSC = join(REPO, "node_modules", ".bin", "tsc");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sdk-from-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI as a child process; asynchronous, so a server in this process can answer it meanwhile. */
function generateFrom(from: string, out: string, name: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["tools/sdk/cli.ts", "--from", from, "--out", out, "--name", name], {
      cwd: REPO,
      env: { ...process.env, FZ_PROGRESS: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stderr }));
  });
}

/** tsc under the package's own strict tsconfig.json; the diagnostics, empty when it compiles. */
function compile(pkg: string): string {
  const run = spawnSync(TSC, ["-p", join(pkg, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`.trim();
}

describe("from a running server's URL", () => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveTestApp();
  });
  afterAll(() => served.close());

  test("the identity domain's served document -> a package that compiles and calls that server", async () => {
    const out = join(dir, "identity");
    const run = await generateFrom(`${served.base}/api/v1/freezone/identity/openrpc.json`, out, "@acme/identity");
    expect(run.status).toBe(0);
    // The served document keeps the platform's extensions: errors with variants, x-mcp.readOnly, the refresh.
    expect(run.stderr).not.toContain("declare no error variants");
    expect(run.stderr).not.toContain("no refresh method");
    const methods = readFileSync(join(out, "src", "methods.ts"), "utf8");
    expect(methods).toContain('refresh: { method: "authservice.refresh_token", param: "token" }');
    expect(methods).toMatch(
      /"authservice\.login": \{[^}]*variant: "InvalidCredentials" \| "RateLimited" \| "Suspended"/,
    );
    expect(compile(out)).toBe("");

    const generated = await import(pathToFileURL(join(out, "src", "index.ts")).href);
    const client = generated.createClient({ url: `${served.base}/freezone/identity/rpc` });
    const registered = await client.authservice.register({ email: "url@example.org", password: PASSWORD });
    client.useSession(registered);
    expect((await client.authservice.me()).email).toBe("url@example.org");
  });

  test("an unreachable URL fails with a message", async () => {
    const run = await generateFrom(`${served.base}/api/v1/nowhere/openrpc.json`, join(dir, "nowhere"), "x");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/sdk: cannot read http:\/\/127\.0\.0\.1:\d+\/api\/v1\/nowhere\/openrpc\.json: HTTP 404/);
  });
});
