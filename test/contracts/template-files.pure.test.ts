import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { renderContract, renderFormationDocument } from "../../src/contracts/render.ts";
import {
  findTemplate,
  formationTemplateFor,
  listTemplates,
  loadTemplateCatalogue,
} from "../../src/contracts/templates.ts";

describe("the repository's contract templates", () => {
  test("hold the registration and lifecycle templates the issue names", () => {
    const keys = listTemplates().map((t) => t.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        "terms_of_service",
        "privacy_policy",
        "digital_residency",
        "company_articles",
        "cooperative_charter",
        "articles_amendment",
        "share_transfer_agreement",
        "share_buyback_agreement",
        "member_expulsion_resolution",
        "upgrade_resolution",
      ]),
    );
    expect(keys).toEqual([...keys].sort());
  });

  test("each registration category has a creation template", () => {
    const categories = listTemplates()
      .filter((t) => t.stage === "creation")
      .map((t) => t.category);
    expect(new Set(categories)).toEqual(
      new Set(["terms_of_service", "privacy_policy", "digital_residency", "company_formation"]),
    );
  });

  test("the formation template follows the company type", () => {
    expect(formationTemplateFor("startup_fzc")?.key).toBe("company_articles");
    expect(formationTemplateFor("coop_platinum_fzc")?.key).toBe("cooperative_charter");
    expect(findTemplate("company_articles")?.placeholders).toEqual(
      expect.arrayContaining(["entity_name", "company_type", "registered_address", "shareholders_table"]),
    );
    expect(findTemplate("cooperative_charter")?.placeholders).toContain("founding_members_table");
    expect(findTemplate("nope")).toBeNull();
  });

  test("templates signed as stored (terms, privacy, residency) carry no placeholder", () => {
    for (const key of ["terms_of_service", "privacy_policy", "digital_residency"]) {
      expect(findTemplate(key)?.placeholders).toEqual([]);
    }
  });
});

describe("loadTemplateCatalogue", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "fz-templates-"));

  test("a malformed file stops the load with a message naming the file and the problem", () => {
    const d = dir();
    writeFileSync(join(d, "bad.md"), "---\nkey: x\n---\nbody\n");
    expect(() => loadTemplateCatalogue(d)).toThrow(/bad\.md is malformed: header field "version" is missing/);
  });

  test("two files with one key stop the load", () => {
    const d = dir();
    const file = "---\nkey: a\ntitle: A\ndescription: D\nversion: 1\nstage: company\n---\nbody\n";
    writeFileSync(join(d, "a.md"), file);
    writeFileSync(join(d, "b.md"), file);
    expect(() => loadTemplateCatalogue(d)).toThrow(/key "a" is used by two files/);
  });

  test("an empty or missing directory stops the load", () => {
    expect(() => loadTemplateCatalogue(dir())).toThrow(/holds no contract template/);
    expect(() => loadTemplateCatalogue(join(dir(), "missing"))).toThrow(/cannot be read/);
  });
});

describe("rendering a template file", () => {
  test("renderFormationDocument fills the cooperative charter and reports what is missing", () => {
    const r = renderFormationDocument("coop_standard_fzc", {
      entity_name: "Green Growers",
      company_type: "Cooperative (standard)",
      founding_members_table: { columns: ["Member", "Email"], rows: [["Ada", "ada@example.org"]] },
    });
    expect(r).toMatchObject({ key: "cooperative_charter", version: "2026.1" });
    expect(r?.text).toContain("# Charter of Green Growers");
    expect(r?.text).toContain("| Ada | ada@example.org |");
    expect(r?.missing).toEqual(["business_activity", "formation_date", "registered_address"]);
  });

  test("renderContract renders by key; an unknown key is null", () => {
    expect(renderContract("terms_of_service", {})?.text).toBe(findTemplate("terms_of_service")?.body);
    expect(renderContract("nope", {})).toBeNull();
  });
});
