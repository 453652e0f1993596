import { describe, expect, test } from "vitest";
import { planContractSync, planTemplateCatalogue, type StoredContract } from "../../src/domain/contract-sync.ts";
import { type ContractTemplateFile, parseTemplateFile } from "../../src/domain/contract-templates.ts";

function file(key: string, version: string, body = `${key} text`, stage = "lifecycle"): ContractTemplateFile {
  const r = parseTemplateFile(
    `---\nkey: ${key}\ntitle: ${key}\ndescription: d\nversion: ${version}\nstage: ${stage}\n---\n${body}\n`,
  );
  if (!r.ok) throw new Error(r.problem);
  return r.template;
}

function row(t: ContractTemplateFile, sid: string, extra: Partial<StoredContract> = {}): StoredContract {
  return {
    sid,
    category_key: t.key,
    version: t.version,
    content_hash: t.contentHash,
    is_active: true,
    title: t.title,
    category: t.category,
    required_for: [...t.requiredFor],
    company_types: [...t.companyTypes],
    effective_from: t.effectiveFrom,
    ...extra,
  };
}

describe("planContractSync", () => {
  test("an empty table gets every registration template; company templates are catalogue only", () => {
    const plan = planContractSync([file("a", "1"), file("nda", "1", "x", "company")], []);
    expect(plan.insert.map((t) => t.key)).toEqual(["a"]);
    expect(plan).toMatchObject({ conflicts: [], deactivate: [], activate: [], refresh: [] });
  });

  test("files matching the rows change nothing", () => {
    const a = file("a", "1");
    expect(planContractSync([a], [row(a, "s1")])).toEqual({
      conflicts: [],
      deactivate: [],
      insert: [],
      activate: [],
      refresh: [],
    });
  });

  test("a new version is inserted and the old one deactivated, kept for its signatures", () => {
    const v1 = file("a", "1");
    const plan = planContractSync([file("a", "2", "new text")], [row(v1, "s1")]);
    expect(plan.insert.map((t) => t.version)).toEqual(["2"]);
    expect(plan.deactivate).toEqual(["s1"]);
  });

  test("going back to a stored version reactivates it", () => {
    const v1 = file("a", "1");
    const v2 = file("a", "2", "new");
    const plan = planContractSync([v1], [row(v1, "s1", { is_active: false }), row(v2, "s2")]);
    expect(plan).toMatchObject({ activate: ["s1"], deactivate: ["s2"], insert: [] });
  });

  test("changed text under the same version is a conflict", () => {
    const v1 = file("a", "1");
    const plan = planContractSync([file("a", "1", "edited")], [row(v1, "s1")]);
    expect(plan.conflicts).toEqual([expect.stringContaining('"a" version 1 differs')]);
    expect(plan.insert).toEqual([]);
  });

  test("a changed header under the same text is refreshed in place", () => {
    const v1 = file("a", "1");
    const plan = planContractSync([v1], [row(v1, "s1", { title: "old title" })]);
    expect(plan.refresh).toEqual([{ sid: "s1", template: v1 }]);
  });

  test("a template whose file is gone is deactivated", () => {
    const gone = file("gone", "1");
    expect(planContractSync([], [row(gone, "s9")]).deactivate).toEqual(["s9"]);
  });
});

describe("planTemplateCatalogue", () => {
  test("inserts, updates changed rows by key, and removes rows without a file", () => {
    const a = file("a", "1");
    const b = file("b", "1", "b text", "company");
    const plan = planTemplateCatalogue(
      [a, b],
      [
        { sid: "t1", name: "a", description: "d", category: "a", content: "a text\n" },
        { sid: "t2", name: "z", description: "d", category: "z", content: "z" },
      ],
    );
    expect(plan.insert).toEqual([{ name: "b", description: "d", category: "b", content: "b text\n" }]);
    expect(plan.update).toEqual([]);
    expect(plan.remove).toEqual(["t2"]);
    const changed = planTemplateCatalogue(
      [a],
      [{ sid: "t1", name: "a", description: "d", category: "a", content: "x" }],
    );
    expect(changed.update).toEqual([
      { sid: "t1", fields: { name: "a", description: "d", category: "a", content: "a text\n" } },
    ]);
  });
});
