import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSpec } from "../../codegen/load.ts";
import type { MethodModel } from "../../codegen/model.ts";
import { createRegistry } from "../../src/app/runtime.ts";

/**
 * The registry the server runs is the spec's policy, method by method (no database): what x-auth, x-target (with
 * the record's x-company), x-acts-as, x-caller-binding, x-password, x-audit, x-internal, the MCP flags and the
 * declared errors say is exactly what the live entry carries, so the dispatcher enforces the declaration and
 * nothing else. docs/authorization.md lists every company-scoped method with its role.
 */

const root = join(import.meta.dirname, "../..");
const loaded = loadSpec(join(root, "spec"));
const model = loaded.model;
const methods: MethodModel[] = model?.methods ?? [];
const registry = createRegistry();

/**
 * The methods whose role check the table before target-first dispatch listed as `handler` (docs/authorization.md at
 * 3925cf5~1, "Company from" `handler, ...`): each must now declare its target, so the dispatcher checks it.
 */
const FORMERLY_HANDLER_CHECKED = [
  "businessdocumentservice.delete_document",
  "governanceservice.cast_vote",
  "governanceservice.conduct_review",
  "governanceservice.enforce_decision",
  "governanceservice.execute_proposal",
  "governanceservice.file_appeal",
  "governanceservice.get_proposal",
  "governanceservice.issue_decision",
  "governanceservice.submit_response",
  "governanceservice.tally_votes",
  "invoiceservice.create",
  "invoiceservice.delete",
  "invoiceservice.list",
  "invoiceservice.send_invoice",
  "shareholderservice.cancel_transfer",
  "shareholderservice.complete_transfer",
  "shareholderservice.execute_dividend",
];

test("the spec loads without diagnostics", () => {
  expect(loaded.diags.items).toEqual([]);
  expect(methods.length).toBeGreaterThan(100);
});

test("the registry serves exactly the spec's methods and aliases", () => {
  const names = [...registry.keys()].sort();
  const declared = methods.flatMap((m) => [m.name, ...m.aliases]).sort();
  expect(names).toEqual(declared);
  for (const m of methods) for (const alias of m.aliases) expect(registry.get(alias)).toBe(registry.get(m.name));
});

describe.each(methods.map((m) => [m.name, m] as const))("%s", (_name, m) => {
  test("the live entry carries the spec's policy", () => {
    const entry = registry.get(m.name);
    expect(entry, `${m.name} is not served`).toBeDefined();
    const live = {
      auth: entry!.auth,
      target: entry!.target,
      actsAs: entry!.actsAs,
      callerBinding: entry!.callerBinding,
      password: entry!.password,
      audit: entry!.audit,
      internal: entry!.internal,
      mcp: entry!.mcp,
      errors: entry!.errors,
    };
    expect(live).toEqual({
      auth: m.auth,
      target: m.target,
      actsAs: m.actsAs,
      callerBinding: m.callerBinding,
      password: m.password,
      audit: m.audit,
      internal: m.internal,
      mcp: m.mcp,
      errors: m.errors,
    });
  });
});

describe("every target's company link is its record's x-company", () => {
  const records = new Map((model?.records ?? []).map((r) => [r.name, r]));
  test.each(methods.filter((m) => m.target).map((m) => [m.name, m] as const))("%s", (_name, m) => {
    const record = records.get(m.target!.record);
    expect(record, `x-target names unknown record ${m.target!.record}`).toBeDefined();
    expect(m.target!.company).toEqual(record!.company);
    if (m.target!.role) expect(m.target!.company, "a role needs a company to hold it in").not.toBeNull();
  });
});

describe("docs/authorization.md", () => {
  const doc = readFileSync(join(root, "docs/authorization.md"), "utf8").split("\n");
  const start = doc.findIndex((l) => l.startsWith("## Company operations"));
  const end = doc.findIndex((l, i) => i > start && l.startsWith("## "));
  const table = doc.slice(start, end).filter((l) => l.startsWith("| `"));
  const rowOf = (name: string) => table.find((l) => l.startsWith(`| \`${name}\` |`));
  const scoped = methods.filter((m) => m.target?.role);

  test.each(scoped.map((m) => [m.name, m.target!.role, m.target!.party] as const))(
    "%s is in the company table as %s",
    (name, role, party) => {
      const line = rowOf(name);
      expect(line, `${name} is missing from the company table`).toBeDefined();
      const words = party ? `\`${role}\`, or the ${party.kind} its \`${party.field}\` names` : `\`${role}\``;
      expect(line!.split("|").map((s) => s.trim())[2]).toBe(words);
    },
  );

  test("the company table lists no method without a target role", () => {
    const listed = table.map((l) => l.split("`")[1]);
    expect(listed.sort()).toEqual(scoped.map((m) => m.name).sort());
  });
});

test.each(FORMERLY_HANDLER_CHECKED)("%s, once checked by its handler, declares a target with a role", (name) => {
  const m = methods.find((x) => x.name === name);
  expect(m, `${name} is no longer in the spec`).toBeDefined();
  expect(m!.target?.role, `${name} has no x-target role: its handler would check the role again`).toBeTruthy();
});
