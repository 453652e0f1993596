import { afterEach, beforeEach, expect, test } from "vitest";
import { runEmitter } from "../../codegen/generate.ts";
import { loadSpec } from "../../codegen/load.ts";
import { copyFixture, editJson, removeDir } from "./support.ts";

// Issue 32 item 1: the names in generated/validators.cjs come from what they check, not from ajv's counter, so
// adding a method adds lines and changes none of the others.

let root: string;
beforeEach(() => {
  root = copyFixture();
});
afterEach(() => removeDir(root));

async function validators(): Promise<string> {
  const { model, diags } = loadSpec(`${root}/spec`);
  expect(diags.items).toEqual([]);
  const files = await runEmitter("validators", model!, root);
  return files.find((f) => f.path === "generated/validators.cjs")!.content;
}

/** Lines of `before` that `after` no longer has (as a multiset: a line twice must stay twice). */
function removedLines(before: string, after: string): string[] {
  const left = new Map<string, number>();
  for (const line of after.split("\n")) left.set(line, (left.get(line) ?? 0) + 1);
  return before.split("\n").filter((line) => {
    const n = left.get(line) ?? 0;
    if (n === 0) return true;
    left.set(line, n - 1);
    return false;
  });
}

test("every function and constant has a name derived from its schema, none numbered by ajv", async () => {
  const code = await validators();
  expect(code).not.toMatch(/\b(?:validate|schema|pattern|formats|func)\d+\b/);
  expect(code).toMatch(/^exports\.validateNoteServiceCreateParams = validateNoteServiceCreateParams;$/m);
  expect(code).toMatch(/^function validateNoteServiceCreateParams\(/m);
  expect(code).toMatch(/^const schema_[0-9a-f]{12} = /m);
});

test("a method added in the middle of a service adds lines and removes or changes none", async () => {
  const before = await validators();
  editJson(root, "spec/services/note-service.openrpc.json", (doc) => {
    doc.methods.unshift({
      name: "noteservice.archive",
      summary: "Archive a note",
      paramStructure: "by-name",
      params: [
        { name: "note_id", required: true, schema: { type: "string" } },
        { name: "reason", required: false, schema: { type: "string", maxLength: 200 } },
      ],
      result: { name: "result", schema: { $ref: "#/components/schemas/NoteResult" } },
      "x-auth": "user",
      "x-mcp": { readOnly: false, destructive: false, idempotent: true },
      "x-errors": { NoteError: ["NotFound"] },
    });
  });
  const after = await validators();
  expect(after).toContain("validateNoteServiceArchiveParams");
  expect(removedLines(before, after)).toEqual([]);
  expect(after.split("\n").length).toBeGreaterThan(before.split("\n").length);
});

test("the same spec compiles to the same bytes", async () => {
  expect(await validators()).toBe(await validators());
});
