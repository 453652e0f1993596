import { afterEach, beforeEach, expect, test } from "vitest";
import { checkGenerated } from "../../codegen/drift.ts";
import { generate } from "../../codegen/generate.ts";
import { writeFiles } from "../../codegen/write.ts";
import { copyFixture, editJson, readText, removeDir, writeText } from "../codegen/support.ts";

// clients/ts is part of the codegen file set: `npm run codegen` writes it and `npm run codegen:check` fails when
// it is stale (on the fixture spec, like test/codegen/check.pure.test.ts).
let root: string;

beforeEach(async () => {
  root = copyFixture();
  const { files, diagnostics } = await generate(root);
  expect(diagnostics).toEqual([]);
  expect(files.map((f) => f.path).filter((p) => p.startsWith("clients/"))).toEqual([
    "clients/ts/src/runtime.ts",
    "clients/ts/src/types.ts",
    "clients/ts/src/methods.ts",
    "clients/ts/src/client.ts",
    "clients/ts/src/index.ts",
    "clients/ts/package.json",
    "clients/ts/tsconfig.json",
    "clients/ts/README.md",
  ]);
  writeFiles(root, files);
});

afterEach(() => removeDir(root));

test("passes right after codegen", async () => {
  expect((await checkGenerated(root)).drifted).toEqual([]);
});

test("fails on a hand edit of the client, and on a stray file in its src/", async () => {
  writeText(
    root,
    "clients/ts/src/runtime.ts",
    readText(root, "clients/ts/src/runtime.ts").replace("attempts: 3", "attempts: 9"),
  );
  writeText(root, "clients/ts/src/old-service.ts", "export {};\n");
  expect((await checkGenerated(root)).drifted).toEqual(["clients/ts/src/runtime.ts", "clients/ts/src/old-service.ts"]);
});

test("fails when spec/ changed without regenerating: the client's types and methods are named", async () => {
  editJson(root, "spec/enums.json", (e) => e.schemas.NoteKind.enum.push("drawing"));
  editJson(root, "spec/services/note-service.openrpc.json", (d) => (d.methods[0].summary = "Writes a note"));
  const { drifted } = await checkGenerated(root);
  expect(drifted).toEqual(expect.arrayContaining(["clients/ts/src/types.ts", "clients/ts/src/methods.ts"]));
  expect(drifted).not.toContain("clients/ts/src/runtime.ts");
});
