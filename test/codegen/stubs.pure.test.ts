import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { afterEach, beforeEach, expect, test } from "vitest";
import { generate, runEmitter } from "../../codegen/generate.ts";
import { loadSpec } from "../../codegen/load.ts";
import { writeFiles } from "../../codegen/write.ts";
import { PROJECT_ROOT } from "../../src/project-root.ts";
import { copyFixture, editJson, readText, removeDir, writeText } from "./support.ts";

// Regeneration must never touch hand-written handler code: it only appends stubs for new methods.
const HAND_WRITTEN = `import type { NoteServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

// A helper the handlers share; codegen must leave it alone.
function   clean(title:string){ return title.trim() }

/** NoteService, written by hand. */
export const noteService: NoteServiceHandlers<RpcContext> = {
  async create(ctx, params) {
    // odd    spacing and a comment, kept byte for byte
    const title = clean( params.title );
    if (!title) throw RpcError.app("NoteError", "InvalidInput", "title is empty");
    return { sid: "n1", title, kind: params.kind ?? "plain", created_at: ctx.now().toISOString() } ;
  },
  list: async (_ctx, params) => ({ items: [], total: 0, page: params.page ?? 1 }),
  async delete(_ctx, { note_id }) {
    /* block comment */ return { sid: note_id, deleted: true };
  },
};
`;

let root: string;
const BIOME = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

beforeEach(async () => {
  root = copyFixture();
  const first = await generate(root);
  expect(first.diagnostics).toEqual([]);
  writeFiles(root, first.files);
  writeText(root, "src/services/note-service.ts", HAND_WRITTEN);
});

afterEach(() => removeDir(root));

function addArchiveMethod(): void {
  editJson(root, "spec/services/note-service.openrpc.json", (doc) => {
    doc.methods.push({
      name: "noteservice.archive",
      summary: "Archive a note",
      paramStructure: "by-name",
      params: [{ name: "note_id", required: true, schema: { type: "string" } }],
      result: { name: "result", schema: { $ref: "#/components/schemas/NoteResult" } },
      "x-auth": "user",
      "x-mcp": { readOnly: false, destructive: false, idempotent: true },
      "x-errors": { NoteError: ["NotFound"] },
    });
  });
}

async function stubs(): Promise<Map<string, string>> {
  const { model, diags } = loadSpec(`${root}/spec`);
  expect(diags.items).toEqual([]);
  const files = await runEmitter("stubs", model!, root);
  return new Map(files.map((f) => [f.path, f.content]));
}

test("a new method gets a stub appended and every hand-written byte stays", async () => {
  addArchiveMethod();
  const text = (await stubs()).get("src/services/note-service.ts")!;
  const end = HAND_WRITTEN.lastIndexOf("};");
  expect(text.startsWith(HAND_WRITTEN.slice(0, end))).toBe(true);
  expect(text.endsWith(HAND_WRITTEN.slice(end))).toBe(true);
  expect(text.slice(end, text.length - (HAND_WRITTEN.length - end))).toBe(
    '  async archive(_ctx, _params) {\n    throw RpcError.notImplemented("noteservice.archive");\n  },\n',
  );
});

test("without spec changes the hand-written file comes back unchanged", async () => {
  expect((await stubs()).get("src/services/note-service.ts")).toBe(HAND_WRITTEN);
});

test("a new service gets its own stub file and an entry in src/services/index.ts", async () => {
  const indexBefore = readText(root, "src/services/index.ts");
  editJson(root, "spec/platform.json", (p) => {
    p.domains.people.services.TagService = "1.0.0";
  });
  writeText(
    root,
    "spec/services/tag-service.openrpc.json",
    JSON.stringify({
      openrpc: "1.3.2",
      info: { title: "TagService", version: "1.0.0" },
      methods: [
        {
          name: "tagservice.rename",
          params: [{ name: "tag", required: true, schema: { type: "string" } }],
          result: { name: "result", schema: { $ref: "#/components/schemas/DeletedResult" } },
          "x-auth": "user",
        },
      ],
    }),
  );
  const files = await stubs();
  expect(files.get("src/services/note-service.ts")).toBe(HAND_WRITTEN);
  expect(files.get("src/services/tag-service.ts")).toContain('throw RpcError.notImplemented("tagservice.rename");');
  const index = files.get("src/services/index.ts")!;
  expect(index).toContain('import { tagService } from "./tag-service.ts";');
  expect(index).toMatch(
    /services: ServiceHandlers<RpcContext> = \{\n {2}noteService,\n {2}walletService,\n {2}tagService,\n\};/,
  );
  for (const line of indexBefore.split("\n")) expect(index).toContain(line);
});

test("an index entry written as a property assignment counts as present", async () => {
  const index = readText(root, "src/services/index.ts").replace("  noteService,", "  noteService: noteService,");
  writeText(root, "src/services/index.ts", index);
  expect((await stubs()).get("src/services/index.ts")).toBe(index);
});

test("a stub added to a file that never imported RpcError brings the import", async () => {
  const withoutRpcError = HAND_WRITTEN.replace('import { RpcError } from "../rpc/errors.ts";\n', "").replace(
    'if (!title) throw RpcError.app("NoteError", "InvalidInput", "title is empty");',
    "if (!title) throw new Error();",
  );
  writeText(root, "src/services/note-service.ts", withoutRpcError);
  addArchiveMethod();
  const text = (await stubs()).get("src/services/note-service.ts")!;
  expect(text).toContain(
    'import type { RpcContext } from "../rpc/context.ts";\nimport { RpcError } from "../rpc/errors.ts";\n',
  );
  expect(text).toContain('throw RpcError.notImplemented("noteservice.archive");');
  expect(text.replace('import { RpcError } from "../rpc/errors.ts";\n', "")).toContain(
    withoutRpcError.slice(0, withoutRpcError.lastIndexOf("};")),
  );
});

test("the import a stub brings lands where the project's import order puts it: the file passes lint as written", async () => {
  // A handler file as the project writes them: imports in Biome's order, one of them after ../rpc/errors.ts.
  const tidy = `import type { NoteServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { noteTitle } from "./note-title.ts";

/** NoteService, written by hand. */
export const noteService: NoteServiceHandlers<RpcContext> = {
  async create(ctx, params) {
    return { sid: "n1", title: noteTitle(params.title), kind: "plain", created_at: ctx.now().toISOString() };
  },
};
`;
  writeText(root, "src/services/note-service.ts", tidy);
  addArchiveMethod();
  const text = (await stubs()).get("src/services/note-service.ts")!;
  expect(text.split("\n").slice(0, 4)).toEqual([
    'import type { NoteServiceHandlers } from "../../generated/handlers/index.ts";',
    'import type { RpcContext } from "../rpc/context.ts";',
    'import { RpcError } from "../rpc/errors.ts";',
    'import { noteTitle } from "./note-title.ts";',
  ]);
  // `npm run lint`'s Biome, with the project's own settings, on the file as codegen wrote it: it would change
  // nothing (formatting, imports, fixable lints) and reports nothing. (On stdin Biome answers the fixed text; its
  // check without --write always says "not fixed" there, so the fixed text is compared instead.)
  const check = spawnSync(
    process.execPath,
    [BIOME, "check", "--write", "--error-on-warnings", "--stdin-file-path=src/services/note-service.ts"],
    { cwd: PROJECT_ROOT, input: text, encoding: "utf8" },
  );
  expect(check.status, check.stderr).toBe(0);
  expect(check.stderr).toBe("");
  expect(check.stdout).toBe(text);
});
