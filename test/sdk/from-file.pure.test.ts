import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sdkFiles } from "../../codegen/emit/sdk-files.ts";
import { sdkModelFromOpenrpc } from "../../codegen/emit/sdk-model.ts";

// `npm run sdk -- --from <url|file> --out <dir>`: a client team regenerates against a deployed server's document,
// or any OpenRPC file; what the document lacks degrades (variants as string, no retries, no refresh).
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

/** A document of another API: no platform extensions, a method without a dot, an error without data. */
const FOREIGN = {
  openrpc: "1.3.2",
  info: { title: "petstore", version: "1.2" },
  servers: [{ url: "http://pets.test/rpc" }],
  methods: [
    {
      name: "ping",
      params: [],
      result: { name: "pong", schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
    },
    {
      name: "pets.add",
      params: [
        { name: "pet", required: true, schema: { $ref: "#/components/schemas/Pet" } },
        { name: "note", schema: { type: "string" } },
      ],
      result: { name: "pet", schema: { $ref: "#/components/schemas/Pet" } },
      errors: [{ code: 1, message: "duplicate" }],
    },
  ],
  components: {
    schemas: {
      Pet: {
        type: "object",
        properties: { name: { type: "string" }, kind: { $ref: "#/components/schemas/pet-kind" } },
        required: ["name", "kind"],
      },
      "pet-kind": { type: "string", enum: ["cat", "dog"] },
    },
  },
};

describe("from a file", () => {
  test("a foreign document degrades gracefully: variants as string, nothing retried, no refresh", async () => {
    const model = sdkModelFromOpenrpc(FOREIGN);
    expect(model.methods.map((m) => [m.name, m.namespace, m.op, m.variants, m.readOnly])).toEqual([
      ["ping", "_", "ping", null, false],
      ["pets.add", "pets", "add", null, false],
    ]);
    expect(model.refresh).toBeNull();
    expect(model.notes).toEqual([
      "2 method(s) declare no error variants: typed as string",
      "no method is marked read-only (x-mcp.readOnly): none is retried",
      "no refresh method (…refresh_token): an expired session is not refreshed",
    ]);
    const files = await sdkFiles(model, { dir: ".", name: "@acme/pets", source: "pets.json" });
    const methods = files.find((f) => f.path === "./src/methods.ts")!.content;
    expect(methods).toContain(
      '"pets.add": { args: [params: PetsAddParams, options?: CallOptions]; result: Pet; variant: string }',
    );
    expect(methods).toContain("readOnly: new Set<string>([]),");
    expect(methods).toContain("refresh: null,");
    const types = files.find((f) => f.path === "./src/types.ts")!.content;
    expect(types).toContain('export type PetKind = "cat" | "dog";');
    const pkg = JSON.parse(files.find((f) => f.path === "./package.json")!.content);
    expect([pkg.name, pkg.version]).toEqual(["@acme/pets", "1.2.0"]);
  });

  test("npm run sdk -- --from <file> writes a package that compiles under strict", async () => {
    const file = join(dir, "pets.json");
    writeFileSync(file, JSON.stringify(FOREIGN));
    const out = join(dir, "pets");
    const run = await generateFrom(file, out, "@acme/pets");
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/sdk: 8 of 8 file\(s\) written to .*pets in \d+\.\d s\n/);
    expect(run.stderr).toContain("sdk: note: 2 method(s) declare no error variants: typed as string");
    expect(compile(out)).toBe("");
  });

  test("a document that is not OpenRPC is refused with a message, nothing written", async () => {
    const file = join(dir, "not-openrpc.json");
    writeFileSync(file, JSON.stringify({ swagger: "2.0" }));
    const run = await generateFrom(file, join(dir, "nothing"), "x");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not an OpenRPC document");
    expect(() => readFileSync(join(dir, "nothing", "package.json"))).toThrow();
  });
});
