import { describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/domain/contract-render.ts";
import {
  appliesToCompanyType,
  type ContractTemplateFile,
  catalogueProblems,
  parseTemplateFile,
} from "../../src/domain/contract-templates.ts";

const CREATION = [
  "---",
  "key: terms_of_service",
  "title: Terms",
  "description: The terms.",
  "version: 2026.1",
  "stage: creation",
  "category: terms_of_service",
  "required_for: resident, company",
  "---",
  "",
  "# Terms of {{ entity_name }}",
  "",
].join("\n");

function parsed(text: string): ContractTemplateFile {
  const r = parseTemplateFile(text);
  if (!r.ok) throw new Error(r.problem);
  return r.template;
}

function problem(text: string): string {
  const r = parseTemplateFile(text);
  if (r.ok) throw new Error("parsed a malformed file");
  return r.problem;
}

describe("parseTemplateFile", () => {
  test("reads the header and the trimmed body with its placeholders and hash", () => {
    const t = parsed(CREATION);
    expect(t).toMatchObject({
      key: "terms_of_service",
      title: "Terms",
      version: "2026.1",
      stage: "creation",
      category: "terms_of_service",
      requiredFor: ["resident", "company"],
      companyTypes: [],
      effectiveFrom: null,
      body: "# Terms of {{ entity_name }}\n",
      placeholders: ["entity_name"],
    });
    expect(t.contentHash).toBe(sha256Hex(t.body));
  });

  test("CRLF files read like LF files", () => {
    expect(parsed(CREATION.replace(/\n/g, "\r\n")).contentHash).toBe(parsed(CREATION).contentHash);
  });

  test("a lifecycle template has no category and no required_for, and may name company types", () => {
    const t = parsed(
      "---\nkey: share_transfer\ntitle: T\ndescription: D\nversion: 1\nstage: lifecycle\ncompany_types: startup_fzc\n---\nx",
    );
    expect(t).toMatchObject({ category: null, requiredFor: [], companyTypes: ["startup_fzc"] });
    expect(appliesToCompanyType(t, "startup_fzc")).toBe(true);
    expect(appliesToCompanyType(t, "coop_standard_fzc")).toBe(false);
    expect(appliesToCompanyType({ companyTypes: [] }, "coop_standard_fzc")).toBe(true);
  });

  test("effective_from is read as an instant", () => {
    const t = parsed(CREATION.replace("stage:", "effective_from: 2027-01-01T00:00:00Z\nstage:"));
    expect(t.effectiveFrom?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  test.each([
    ["no header", "# body", "must start"],
    ["unclosed header", "---\nkey: a\n", "no closing"],
    ["a line that is not a field", CREATION.replace("title: Terms", "Terms"), 'not "field: value"'],
    ["an unknown field", CREATION.replace("title:", "owner: x\ntitle:"), 'unknown header field "owner"'],
    ["a repeated field", CREATION.replace("title:", "title: a\ntitle:"), "given twice"],
    ["a missing title", CREATION.replace("title: Terms\n", ""), '"title" is missing'],
    ["a bad key", CREATION.replace("key: terms_of_service", "key: Terms"), "lower_case"],
    ["a bad version", CREATION.replace("version: 2026.1", "version: 2026 1"), "version"],
    ["an unknown stage", CREATION.replace("stage: creation", "stage: later"), "stage"],
    ["an unknown category", CREATION.replace("category: terms_of_service", "category: other"), "category"],
    ["an unknown entity type", CREATION.replace("resident, company", "resident, user"), '"user"'],
    ["a repeated entity type", CREATION.replace("resident, company", "resident, resident"), "repeats"],
    ["creation without required_for", CREATION.replace("required_for: resident, company\n", ""), "creation"],
    ["lifecycle with a category", CREATION.replace("stage: creation", "stage: lifecycle"), "lifecycle"],
    ["an unknown company type", CREATION.replace("stage:", "company_types: big_fzc\nstage:"), "big_fzc"],
    ["a bad effective_from", CREATION.replace("stage:", "effective_from: tomorrow\nstage:"), "effective_from"],
    ["an empty body", `${CREATION.split("---\n\n")[0]}---\n \n`, "body is empty"],
    ["a malformed placeholder", `${CREATION}{{ Entity }}\n`, "malformed placeholder near body line 2"],
    ["an unclosed placeholder", `${CREATION}{{name\n`, "malformed placeholder"],
  ])("refuses %s", (_what, text, message) => {
    expect(problem(text)).toContain(message);
  });
});

describe("catalogueProblems", () => {
  test("two files with one key are a problem", () => {
    const t = parsed(CREATION);
    expect(catalogueProblems([t])).toEqual([]);
    expect(catalogueProblems([t, t])).toEqual(['key "terms_of_service" is used by two files']);
  });
});
