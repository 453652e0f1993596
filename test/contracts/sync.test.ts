import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { syncContractTemplates } from "../../src/contracts/sync.ts";
import { listTemplates, loadTemplateCatalogue, TEMPLATES_DIR } from "../../src/contracts/templates.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ contractTemplateSync: true });
});
afterAll(() => t.close());

const em = () => t.app.runtime.orm.em;

/** A copy of the repository's templates in a temporary directory, to edit. */
function copyOfTemplates(): string {
  const dir = mkdtempSync(join(tmpdir(), "fz-sync-"));
  cpSync(TEMPLATES_DIR, dir, { recursive: true });
  return dir;
}

describe("start-up sync of the template files", () => {
  test("the start wrote one active registration contract per creation or lifecycle file, with its hash", async () => {
    const files = listTemplates().filter((f) => f.stage !== "company");
    const rows = await sql(t, `select category_key, version, content_hash, is_active from "registration_contract"`);
    expect(rows).toHaveLength(files.length);
    for (const f of files) {
      expect(rows).toContainEqual({
        category_key: f.key,
        version: f.version,
        content_hash: f.contentHash,
        is_active: true,
      });
    }
  });

  test("the start wrote one catalogue row per file, company templates included", async () => {
    expect(await count(t, "contract_template")).toBe(listTemplates().length);
    expect(await count(t, "contract_template", "category = ?", ["service_agreement"])).toBe(1);
  });

  test("a second sync of the same files changes nothing", async () => {
    const report = await syncContractTemplates(em(), loadTemplateCatalogue(), t.clock.now());
    expect(report).toEqual({
      inserted: [],
      activated: 0,
      deactivated: 0,
      refreshed: 0,
      catalogue: { inserted: 0, updated: 0, removed: 0 },
    });
  });

  test("a new version is inserted and active; the old one stays, inactive, with its text", async () => {
    const dir = copyOfTemplates();
    const path = join(dir, "terms-of-service.md");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("version: 2026.1", "version: 2026.2").replace("## 8.", "## 8. (revised)"),
    );
    const before = await sql(
      t,
      `select sid, content from "registration_contract" where category_key = 'terms_of_service'`,
    );
    const report = await syncContractTemplates(em(), loadTemplateCatalogue(dir), t.clock.now());
    expect(report).toMatchObject({ inserted: ["terms_of_service@2026.2"], deactivated: 1 });
    const rows = await sql(
      t,
      `select sid, version, is_active, content from "registration_contract" where category_key = 'terms_of_service' order by version`,
    );
    expect(rows.map((r) => [r.version, r.is_active])).toEqual([
      ["2026.1", false],
      ["2026.2", true],
    ]);
    expect(rows[0].sid).toBe(before[0].sid);
    expect(rows[0].content).toBe(before[0].content);
    expect(await count(t, "contract_template", "category = 'terms_of_service' and content like '%(revised)%'")).toBe(1);

    // Back to the repository's files: the stored 2026.1 becomes active again, nothing is inserted.
    const back = await syncContractTemplates(em(), loadTemplateCatalogue(), t.clock.now());
    expect(back).toMatchObject({ inserted: [], activated: 1, deactivated: 1 });
  });

  test("edited text under the same version stops the sync and changes nothing", async () => {
    const dir = copyOfTemplates();
    const path = join(dir, "privacy-policy.md");
    writeFileSync(path, readFileSync(path, "utf8").replace("## 8. Security", "## 8. Safety"));
    const before = await sql(t, `select * from "registration_contract" order by sid`);
    await expect(syncContractTemplates(em(), loadTemplateCatalogue(dir), t.clock.now())).rejects.toThrow(
      /"privacy_policy" version 2026.1 differs from the text stored/,
    );
    expect(await sql(t, `select * from "registration_contract" order by sid`)).toEqual(before);
  });

  test("a template whose file was removed is no longer active", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fz-sync-"));
    cpSync(join(TEMPLATES_DIR, "terms-of-service.md"), join(dir, "terms-of-service.md"));
    await syncContractTemplates(em(), loadTemplateCatalogue(dir), t.clock.now());
    const active = await sql(t, `select category_key from "registration_contract" where is_active`);
    expect(active).toEqual([{ category_key: "terms_of_service" }]);
    expect(await count(t, "contract_template")).toBe(1);
    await syncContractTemplates(em(), loadTemplateCatalogue(), t.clock.now());
    expect(await count(t, "registration_contract", "is_active")).toBe(
      listTemplates().filter((f) => f.stage !== "company").length,
    );
  });
});
