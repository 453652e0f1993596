import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";

// clients/ts packs on its own: `npm pack` runs its `prepack` (tsc under its strict tsconfig.json: the compile
// check), and the tarball, unpacked elsewhere, is a working ES module with its .d.ts and no dependencies.
const REPO = join(import.meta.dirname, "..", "..");
let dir: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sdk-pack-"));
  cpSync(join(REPO, "clients", "ts"), join(dir, "pkg"), {
    recursive: true,
    filter: (src) => !/[/\\](dist|node_modules)$/.test(src),
  });
  // The package's only devDependency (typescript) from this repository's install; npm never packs node_modules.
  symlinkSync(join(REPO, "node_modules"), join(dir, "pkg", "node_modules"), "dir");
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: join(dir, "pkg"),
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error", npm_config_ignore_scripts: "false" },
  });
  packed = JSON.parse(out)[0];
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("npm pack compiles the package under strict and ships dist/ with declarations, sources and README", () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const name of ["client", "index", "methods", "runtime", "types"]) {
    expect(files).toContain(`dist/${name}.js`);
    expect(files).toContain(`dist/${name}.d.ts`);
    expect(files).toContain(`src/${name}.ts`);
  }
  expect(files).toContain("package.json");
  expect(files).toContain("README.md");
  expect(files.filter((f) => f.startsWith("node_modules"))).toEqual([]);
  expect(packed.filename).toMatch(/^freezone-client-\d+\.\d+\.\d+\.tgz$/);
});

test("the unpacked tarball is a dependency-free ES module that makes typed calls", async () => {
  const unpacked = join(dir, "unpacked");
  execFileSync("mkdir", ["-p", unpacked]);
  execFileSync("tar", ["-xzf", join(dir, packed.filename), "-C", unpacked]);
  const pkg = JSON.parse(readFileSync(join(unpacked, "package", "package.json"), "utf8"));
  expect(pkg.dependencies).toBeUndefined();
  expect(pkg.type).toBe("module");
  expect(existsSync(join(unpacked, "package", pkg.types))).toBe(true);

  const sdk = await import(pathToFileURL(join(unpacked, "package", "dist", "index.js")).href);
  const requests: { headers: Record<string, string>; body: any }[] = [];
  const fetch = async (_url: string, init: { headers: Record<string, string>; body: string }) => {
    const body = JSON.parse(init.body);
    requests.push({ headers: init.headers, body });
    const answer =
      body.method === "authservice.me"
        ? { jsonrpc: "2.0", id: body.id, result: { email: "a@example.org" } }
        : {
            jsonrpc: "2.0",
            id: body.id,
            error: { code: -32003, message: "Not found", data: { type: "ResidentError", variant: "NotFound" } },
          };
    return { status: 200, text: async () => JSON.stringify(answer) };
  };
  const client = sdk.createClient({ url: "http://registry.test/rpc", fetch, credentials: { apiKey: "fz_u_test" } });
  expect(await client.authservice.me()).toEqual({ email: "a@example.org" });
  expect(requests[0]!.headers["x-api-key"]).toBe("fz_u_test");
  expect(requests[0]!.body).toMatchObject({ jsonrpc: "2.0", method: "authservice.me", params: {} });
  const err = await client.residentservice.get({ resident_id: "FZ-2026-RA000001" }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(sdk.FreezoneRpcError);
  expect([err.code, err.type, err.variant]).toEqual([-32003, "ResidentError", "NotFound"]);
});
