import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { specCommand } from "../../tools/cli/spec-diff.ts";

// End to end: `npm run cli -- spec diff` on directories, a git ref, a URL and files; diagnostics and exit codes.
const REPO = join(import.meta.dirname, "..", "..");
const MINI = join(REPO, "test", "codegen", "fixtures", "mini", "spec");
const scratch: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "spec-diff-test-"));
  scratch.push(dir);
  return dir;
}

/** A copy of a spec/ tree at `<temp>/spec`; returns `<temp>`. */
function copySpec(from: string): string {
  const root = tempDir();
  cpSync(from, join(root, "spec"), { recursive: true });
  return root;
}

function editJson(path: string, edit: (json: any) => void): void {
  const json = JSON.parse(readFileSync(path, "utf8"));
  edit(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

/** Runs the command in-process, capturing what it prints. */
async function run(args: string[], cwd = REPO): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
    stderr += `${parts.join(" ")}\n`;
  });
  try {
    return { code: await specCommand(args, cwd), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const residentFile = (root: string) => join(root, "spec", "services", "resident-service.openrpc.json");

test("two copies of spec/: a removed method and a new optional param, exit 1, each with its pointer", async () => {
  const old = copySpec(join(REPO, "spec"));
  const next = copySpec(join(REPO, "spec"));
  editJson(residentFile(next), (doc) => {
    doc.methods = doc.methods.filter((m: any) => m.name !== "residentservice.delete");
    const update = doc.methods.find((m: any) => m.name === "residentservice.update_subscription");
    update.params.push({ name: "coupon", required: false, schema: { type: "string" } });
  });
  const { code, stdout } = await run(["diff", join(old, "spec"), next]);
  expect(code).toBe(1);
  expect(stdout.split("\n")).toEqual([
    "BREAKING   /methods/residentservice.delete: method residentservice.delete and its MCP tool freezone_residentservice_delete removed",
    "BREAKING   /methods/residentservice.delete/x-alias/digitalresidentservice.delete: alias digitalresidentservice.delete removed",
    "compatible /methods/residentservice.update_subscription/params/coupon: optional param coupon added",
    `spec diff ${join(old, "spec")} -> ${next}: 2 breaking, 1 compatible change(s): breaking`,
    "",
  ]);
});

test("compatible-only changes exit 0; --json lists them", async () => {
  const old = copySpec(MINI);
  const next = copySpec(MINI);
  editJson(join(next, "spec", "services", "note-service.openrpc.json"), (doc) => {
    doc.methods[1].summary = "List your notes";
    doc.methods[1].params.push({ name: "since", required: false, schema: { type: "string", format: "date-time" } });
  });
  const { code, stdout } = await run(["diff", old, next, "--json"]);
  expect(code).toBe(0);
  const report = JSON.parse(stdout);
  expect(report).toMatchObject({ old, new: next, breaking: 0, compatible: 2 });
  expect(report.changes).toEqual([
    { pointer: "/methods/noteservice.list/params/since", kind: "compatible", message: "optional param since added" },
    { pointer: "/methods/noteservice.list/summary", kind: "compatible", message: "summary changed" },
  ]);
});

test("a git ref: HEAD against the working tree of a scratch repository", async () => {
  const repo = copySpec(MINI);
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", ...args], { cwd: repo });
    expect(r.status, r.stderr?.toString()).toBe(0);
  };
  git("init", "-q");
  git("add", "spec");
  git("commit", "-qm", "spec");
  editJson(join(repo, "spec", "services", "note-service.openrpc.json"), (doc) => {
    doc.methods[0]["x-auth"] = "admin";
  });
  const { code, stdout } = await run(["diff", "HEAD", "spec"], repo);
  expect(code).toBe(1);
  expect(stdout).toContain("BREAKING   /methods/noteservice.create/x-auth: auth tightened: x-auth user -> admin\n");
  expect(stdout).toContain("spec diff HEAD -> spec: 1 breaking, 0 compatible change(s): breaking\n");
  expect((await run(["diff", "HEAD", "HEAD"], repo)).code).toBe(0);
});

let server: Server;
let base: string;
let served: string;

beforeAll(async () => {
  const root = copySpec(MINI);
  const r = spawnSync(join(REPO, "node_modules/.bin/tsx"), ["codegen/cli.ts", "--root", root], { cwd: REPO });
  expect(r.status, r.stderr.toString()).toBe(0);
  served = readFileSync(join(root, "generated", "openrpc", "all.json"), "utf8");
  server = createServer((req, res) => {
    if (req.url === "/openrpc.json") res.writeHead(200, { "content-type": "application/json" }).end(served);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a URL: the served document against the spec it was generated from, then against an edited copy", async () => {
  expect((await run(["diff", `${base}/openrpc.json`, MINI])).stdout).toBe(
    `spec diff ${base}/openrpc.json -> ${MINI}: 0 breaking, 0 compatible change(s): compatible\n`,
  );
  const next = copySpec(MINI);
  editJson(join(next, "spec", "services", "note-service.openrpc.json"), (doc) => {
    doc.methods[0].params.find((p: any) => p.name === "body").required = true;
  });
  const { code, stdout } = await run(["diff", `${base}/openrpc.json`, next]);
  expect(code).toBe(1);
  expect(stdout).toContain("BREAKING   /methods/noteservice.create/params/body: param body now required\n");
});

test("an unreachable URL or a 404 is a diagnostic and exit 2", async () => {
  const { code, stderr } = await run(["diff", `${base}/missing.json`, MINI]);
  expect(code).toBe(2);
  expect(stderr).toContain(`${base}/missing.json#: error fetch-failed: HTTP 404`);
});

test("an invalid document: a diagnostic with the file and the JSON pointer, exit 2, no stack trace", async () => {
  const dir = tempDir();
  const doc = JSON.parse(served);
  doc.methods[1].result.schema = { $ref: "#/components/schemas/Nowhere" };
  doc.methods[2].params[0] = { name: 7 };
  writeFileSync(join(dir, "bad.json"), JSON.stringify(doc));
  const { code, stderr, stdout } = await run(["diff", MINI, "bad.json"], dir);
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr).toBe(
    [
      "bad.json#/methods/2/params/0: error invalid-param: a param needs a string name and a schema object",
      'bad.json#/methods/1/result/schema/$ref: error unresolved-ref: $ref "#/components/schemas/Nowhere" does not name a schema of components.schemas',
      "spec diff: cannot read bad.json (file): 2 error(s)",
      "",
    ].join("\n"),
  );
});

test("a file that is not JSON, and a spec/ tree codegen refuses, name the file and pointer", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "broken.json"), "{ not json");
  expect((await run(["diff", "broken.json", "broken.json"], dir)).stderr).toContain(
    "broken.json#: error invalid-json:",
  );
  const bad = copySpec(MINI);
  editJson(join(bad, "spec", "services", "note-service.openrpc.json"), (doc) => {
    doc.methods[0]["x-auth"] = "everyone";
  });
  const { code, stderr } = await run(["diff", MINI, bad]);
  expect(code).toBe(2);
  expect(stderr).toContain(
    `${join(bad, "spec/services/note-service.openrpc.json")}#/methods/0/x-auth: error invalid-auth:`,
  );
});

test("usage errors exit 2", async () => {
  expect((await run(["diff", MINI])).code).toBe(2);
  expect((await run(["compare", MINI, MINI])).code).toBe(2);
  expect((await run(["diff", MINI, MINI, "--colour"])).code).toBe(2);
  const unknown = await run(["diff", MINI, "no-such-ref-or-file"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("no-such-ref-or-file#: error not-found:");
});

test("npm run cli -- spec diff: the command table runs it and passes its exit code", () => {
  const cli = (...args: string[]) =>
    spawnSync(join(REPO, "node_modules/.bin/tsx"), ["tools/cli.ts", "spec", ...args], { cwd: REPO, encoding: "utf8" });
  const next = copySpec(MINI);
  editJson(join(next, "spec", "enums.json"), (e) => e.schemas.NoteKind.enum.shift());
  const breaking = cli("diff", MINI, next);
  expect([breaking.status, breaking.stderr]).toEqual([1, ""]);
  expect(breaking.stdout).toContain('BREAKING   /components/schemas/NoteKind/enum/plain: enum value "plain" removed\n');
  const usage = cli("diff", MINI);
  expect([usage.status, usage.stdout]).toEqual([2, ""]);
  expect(usage.stderr).toContain("usage: npm run cli -- spec diff <old> <new>");
});
