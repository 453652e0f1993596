import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EMITTERS, runEmitter } from "../../codegen/generate.ts";
import { loadSpec } from "../../codegen/load.ts";
import type { SpecModel } from "../../codegen/model.ts";
import { copyFixture, expectGolden, removeDir } from "./support.ts";

// Each emitter on the fixture spec (two services, two records, a shared schema file), formatted exactly as
// `npm run codegen` writes it, against the committed copies under test/golden/<emitter>/.
let root: string;
let model: SpecModel;

beforeAll(() => {
  root = copyFixture();
  const loaded = loadSpec(`${root}/spec`);
  expect(loaded.diags.items).toEqual([]);
  model = loaded.model!;
});

afterAll(() => removeDir(root));

describe("golden output", () => {
  test("covers all fourteen emitters", () => {
    expect(Object.keys(EMITTERS).sort()).toEqual([
      "authorization",
      "codes",
      "crud",
      "entities",
      "handlers",
      "mcp",
      "methods",
      "openrpc",
      "reference",
      "registry",
      "sdk",
      "stubs",
      "types",
      "validators",
    ]);
  });

  for (const name of Object.keys(EMITTERS)) {
    test(`${name} matches test/golden/${name}`, async () => {
      expectGolden(name, await runEmitter(name, model, root));
    });
  }
});
