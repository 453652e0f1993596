import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { contractFromOpenrpc, Diagnostics } from "../../tools/spec-diff/contract.ts";
import { loadContract } from "../../tools/spec-diff/sources.ts";

// Every problem `spec diff` meets reading a contract is a catalogue code with the file and a JSON pointer
// (issue 32 item 3); one minimally broken document per code.
const method = (over: Record<string, unknown> = {}) => ({
  name: "noteservice.get",
  params: [{ name: "sid", required: true, schema: { type: "string" } }],
  result: { name: "result", schema: { $ref: "#/components/schemas/Note" } },
  ...over,
});
const doc = (methods: unknown[], schemas: unknown = { Note: { type: "object" } }) => ({
  openrpc: "1.3.2",
  info: { title: "t", version: "1" },
  methods,
  components: { schemas },
});

const CASES: [name: string, document: unknown, expected: [code: string, pointer: string][]][] = [
  ["not an object", [1, 2], [["invalid-document", ""]]],
  ["no openrpc version", { ...doc([method()]), openrpc: 3 }, [["invalid-document", "/openrpc"]]],
  ["methods not a list", { ...doc([]), methods: {} }, [["invalid-document", "/methods"]]],
  ["components.schemas not an object", doc([], []), [["invalid-document", "/components/schemas"]]],
  ["a method without a name", doc([method({ name: "" })]), [["invalid-method", "/methods/0/name"]]],
  ["a method that is not an object", doc([7]), [["invalid-method", "/methods/0"]]],
  ["params not a list", doc([method({ params: {} })]), [["invalid-params", "/methods/0/params"]]],
  [
    "a param without a schema",
    doc([method({ params: [{ name: "sid" }] })]),
    [["invalid-param", "/methods/0/params/0"]],
  ],
  ["a result without a schema", doc([method({ result: { name: "r" } })]), [["invalid-result", "/methods/0/result"]]],
  ["errors not a list", doc([method({ errors: {} })]), [["invalid-errors", "/methods/0/errors"]]],
  ["a method listed twice", doc([method(), method()]), [["duplicate-method", "/methods/1/name"]]],
  [
    "a $ref to nothing",
    doc([method({ result: { name: "r", schema: { $ref: "#/components/schemas/Nope" } } })]),
    [["unresolved-ref", "/methods/0/result/schema/$ref"]],
  ],
];

describe("reading an OpenRPC document", () => {
  test("a well-formed one has no diagnostics", () => {
    const diags = new Diagnostics();
    expect(contractFromOpenrpc(doc([method()]), "a.json", diags)).not.toBeNull();
    expect(diags.items).toEqual([]);
  });

  test.each(CASES)("%s", (_name, document, expected) => {
    const diags = new Diagnostics();
    contractFromOpenrpc(document, "a.json", diags);
    expect(diags.items.map((d) => [d.code, d.pointer])).toEqual(expected);
    expect(diags.items.every((d) => d.file === "a.json" && d.severity === "error")).toBe(true);
  });
});

describe("finding a contract", () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), "spec-diff-diags-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const codes = async (arg: string, cwd: string) => (await loadContract(arg, cwd)).diags.items.map((d) => d.code);

  test("a directory without platform.json is not-a-spec", async () => {
    expect(await codes(".", scratch())).toEqual(["not-a-spec"]);
  });

  test("a name that is no file, directory, ref or URL is not-found", async () => {
    expect(await codes("no-such-thing", scratch())).toEqual(["not-found"]);
  });

  test("a git ref whose tree has no spec/ is no-spec-at-ref", async () => {
    const repo = scratch();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { cwd: repo });
    git("init", "-q");
    writeFileSync(join(repo, "README.md"), "no spec here\n");
    git("add", ".");
    git("commit", "-qm", "first");
    expect(await codes("HEAD", repo)).toEqual(["no-spec-at-ref"]);
  });
});
