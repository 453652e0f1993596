import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DIAGNOSTIC_CODES } from "../../codegen/diagnostic-codes.ts";
import { generate } from "../../codegen/generate.ts";
import { lineColumn, locate } from "../../codegen/locate.ts";
import { copyFixture, editJson, REPO_ROOT, readText, removeDir, writeText } from "./support.ts";

// Issue 32 item 3: diagnostics a designer can act on. One catalogue of codes, each with a severity; a position as
// line and column beside the JSON pointer; a syntax error without knock-on errors; a did-you-mean where a near name
// exists.
const NOTES = "spec/services/note-service.openrpc.json";

function sourcesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

describe("the catalogue", () => {
  const raisedIn = (text: string) =>
    new Set([...text.matchAll(/(?:\.add\(\s*|code: )"([a-z]+(?:-[a-z]+)+)"/g)].map((m) => m[1]!));

  test("every code raised by codegen or spec diff is in the catalogue, and every catalogue code is raised", () => {
    const raised = raisedIn(
      sourcesUnder(join(REPO_ROOT, "codegen")) + sourcesUnder(join(REPO_ROOT, "tools/spec-diff")),
    );
    const catalogue = Object.keys(DIAGNOSTIC_CODES);
    expect([...raised].filter((c) => !catalogue.includes(c))).toEqual([]);
    expect(catalogue.filter((c) => !raised.has(c))).toEqual([]);
  });

  test("every catalogue code is expected by some test", () => {
    const tests = sourcesUnder(join(REPO_ROOT, "test/codegen")) + sourcesUnder(join(REPO_ROOT, "test/spec-diff"));
    // As a code value ("unknown-ref") or inside an expected line (": error unknown-ref:").
    const untested = Object.keys(DIAGNOSTIC_CODES).filter(
      (c) => !tests.includes(`"${c}"`) && !tests.includes(` ${c}: `),
    );
    expect(untested).toEqual([]);
  });

  test("docs/spec-format.md lists every code with its severity", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs/spec-format.md"), "utf8");
    const missing = Object.entries(DIAGNOSTIC_CODES).filter(
      ([code, info]) => !new RegExp(`\\| \`${code}\`\\s*\\| ${info.severity}\\s*\\|`).test(doc),
    );
    expect(missing.map(([code]) => code)).toEqual([]);
  });
});

test("lineColumn counts lines and columns from 1", () => {
  const text = '{\n  "a": 1,\n  "b": [true]\n}\n';
  expect(lineColumn(text, 0)).toEqual({ line: 1, column: 1 });
  expect(lineColumn(text, text.indexOf('"b"'))).toEqual({ line: 3, column: 3 });
  expect(lineColumn(text, text.indexOf("true"))).toEqual({ line: 3, column: 9 });
});

let root: string;
beforeEach(() => {
  root = copyFixture();
});
afterEach(() => removeDir(root));

const diagnose = async () => (await generate(root, { validateOnly: true })).diagnostics;

describe("positions", () => {
  test("a pointer is located at the key of the member it names", async () => {
    editJson(root, NOTES, (d) => (d.methods[0].result.schema = { $ref: "#/components/schemas/Nothing" }));
    const [found] = locate(root, await diagnose());
    const text = readText(root, NOTES);
    const offset = text.indexOf('"$ref": "#/components/schemas/Nothing"');
    expect(found).toMatchObject({ code: "unknown-ref", severity: "error", ...lineColumn(text, offset) });
    expect(found!.line).toBeGreaterThan(1);
  });

  test("a pointer to a member left out names its parent", async () => {
    editJson(root, NOTES, (d) => delete d.methods[0]["x-auth"]);
    const [found] = locate(root, await diagnose());
    const text = readText(root, NOTES);
    // The parent is methods/0: the array element, located at its opening brace.
    const methodsAt = text.indexOf('"methods"');
    const firstMethod = text.indexOf("{", methodsAt);
    expect(found).toMatchObject({ code: "missing-auth", ...lineColumn(text, firstMethod) });
  });

  test("a JSON syntax error gives line, column and what is wrong, and no knock-on service-file-missing", async () => {
    const text = readText(root, NOTES);
    const lines = text.split("\n");
    // Drop the comma ending line 3, as a hand edit would.
    const broken = lines.findIndex((l, i) => i > 0 && l.trimEnd().endsWith(","));
    lines[broken] = lines[broken]!.trimEnd().slice(0, -1);
    writeText(root, NOTES, lines.join("\n"));
    const found = await diagnose();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      code: "invalid-json",
      severity: "error",
      file: NOTES,
      line: broken + 2,
      message: "not valid JSON: comma expected",
    });
    expect(found[0]!.message).not.toMatch(/position/);
  });

  test("a trailing comma is a syntax error too (strict JSON)", async () => {
    writeText(root, NOTES, readText(root, NOTES).replace(/\n\}\s*$/, ",\n}\n"));
    const [found] = await diagnose();
    expect(found).toMatchObject({ code: "invalid-json", message: expect.stringMatching(/^not valid JSON: /) });
    expect(found!.line).toBe(readText(root, NOTES).trimEnd().split("\n").length);
  });

  test("the CLI prints file:line:column#pointer, the severity and the code", () => {
    editJson(root, NOTES, (d) => (d.methods[0].result.schema = { $ref: "#/components/schemas/Nots" }));
    const run = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsx"), ["codegen/cli.ts", "--validate", "--root", root], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, FZ_PROGRESS: "0" },
    });
    expect(run.status).toBe(1);
    const text = readText(root, NOTES);
    const { line, column } = lineColumn(text, text.indexOf('"$ref": "#/components/schemas/Nots"'));
    expect(run.stderr).toContain(
      `${NOTES}:${line}:${column}#/methods/0/result/schema/$ref: error unknown-ref: result Nots of `,
    );
    expect(run.stderr).toContain('did you mean "Note"?');
  });
});

describe("did you mean", () => {
  test("a $ref near a defined schema names it", async () => {
    editJson(root, NOTES, (d) => (d.methods[0].params[3].schema = { $ref: "#/components/schemas/NoteKnd" }));
    const [found] = await diagnose();
    expect(found).toMatchObject({ code: "unknown-ref", message: expect.stringContaining('did you mean "NoteKind"?') });
  });

  test("a $ref far from every schema gets no guess", async () => {
    editJson(root, NOTES, (d) => (d.methods[0].params[3].schema = { $ref: "#/components/schemas/Zzzzzzzz" }));
    const [found] = await diagnose();
    expect(found!.message).toBe('$ref "#/components/schemas/Zzzzzzzz" points to nothing');
  });

  test("a method name in camel case is given in lower snake case under the service's prefix", async () => {
    editJson(root, NOTES, (d) => (d.methods[0].name = "noteservice.createNote"));
    const found = (await diagnose()).find((x) => x.code === "method-name-invalid");
    expect(found?.message).toContain('did you mean "noteservice.create_note"?');
  });
});
