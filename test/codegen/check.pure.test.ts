import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { checkGenerated } from "../../codegen/drift.ts";
import { generate } from "../../codegen/generate.ts";
import { writeFiles } from "../../codegen/write.ts";
import { copyFixture, editJson, REPO_ROOT, readText, removeDir, writeText } from "./support.ts";

// `npm run codegen:check` (codegen/cli.ts --check) is `checkGenerated` plus the exit code.
let root: string;

beforeEach(async () => {
  root = copyFixture();
  const { files, diagnostics } = await generate(root);
  expect(diagnostics).toEqual([]);
  writeFiles(root, files);
});

afterEach(() => removeDir(root));

test("passes right after codegen", async () => {
  expect((await checkGenerated(root)).drifted).toEqual([]);
});

test("fails on a hand edit of a generated file and names it", async () => {
  writeText(root, "generated/codes.ts", readText(root, "generated/codes.ts").replace("-32003", "-32099"));
  expect((await checkGenerated(root)).drifted).toEqual(["generated/codes.ts"]);
});

test("fails on a stray file under generated/ and names it", async () => {
  writeText(root, "generated/handlers/old-service.ts", "export {};\n");
  expect((await checkGenerated(root)).drifted).toEqual(["generated/handlers/old-service.ts"]);
});

test("fails on a generated file that was deleted", async () => {
  rmSync(join(root, "generated/openrpc/money.json"));
  expect((await checkGenerated(root)).drifted).toEqual(["generated/openrpc/money.json"]);
});

test("fails when spec/ changed without regenerating and names every affected file", async () => {
  editJson(root, "spec/enums.json", (e) => e.schemas.NoteKind.enum.push("drawing"));
  const { drifted } = await checkGenerated(root);
  expect(drifted).toEqual(
    expect.arrayContaining([
      "generated/types.ts",
      "generated/validators.cjs",
      "generated/mcp-tools.json",
      "generated/openrpc/people.json",
      "generated/openrpc/all.json",
    ]),
  );
  expect(drifted).not.toContain("generated/openrpc/money.json");
});

test("fails on a stale docs/authorization.md: a hand edit, or an x-auth changed without regenerating", async () => {
  writeText(root, "docs/authorization.md", `${readText(root, "docs/authorization.md")}\nhand-written line\n`);
  expect((await checkGenerated(root)).drifted).toEqual(["docs/authorization.md"]);
  writeFiles(root, (await generate(root)).files);
  editJson(root, "spec/services/note-service.openrpc.json", (d) => (d.methods[0]["x-auth"] = "session"));
  expect((await checkGenerated(root)).drifted).toContain("docs/authorization.md");
});

test("a spec with diagnostics reports them instead of a file list", async () => {
  editJson(root, "spec/records/note.json", (r) => (r["x-crud"] = "everyone"));
  const result = await checkGenerated(root);
  expect(result.diagnostics.map((d) => d.code)).toEqual(["invalid-crud-mode"]);
  expect(result.drifted).toEqual([]);
});

test("npm run codegen:check exits non-zero and lists the drifted files", () => {
  writeText(root, "generated/codes.ts", "// edited by hand\n");
  writeText(root, "generated/stray.json", "{}\n");
  const run = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsx"), ["codegen/cli.ts", "--check", "--root", root], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(
    "generated code differs from spec/ in 2 file(s):\n  generated/codes.ts\n  generated/stray.json\n",
  );
});
