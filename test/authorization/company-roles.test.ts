import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { OWNER, passesCompanyRole } from "../../codegen/authorization.ts";
import { RpcError } from "../../src/rpc/errors.ts";
import { CASTS, type Company, companyRows, expected, paramsFor, ROLE_KINDS, staffCompany } from "./support.ts";

/**
 * The authorization table, row by row: every method whose x-auth is `company:<role>` with a company param, called by
 * one caller per role (and the owner, past and future holders, outsiders, an administrator). The handlers are
 * replaced by a probe that records the call and answers NotImplemented, so "allowed" means the dispatcher let the
 * call reach its handler, and "refused" means it answered NotFound or Forbidden and the handler never ran, whatever
 * the real handlers do with the sample params.
 */

const rows = companyRows();
const dispatcherRows = rows.filter((r) => r.rule.record === "ZoneCompany" && r.rule.foreignResident === null);

let c: Company;
const reached: string[] = [];

beforeAll(async () => {
  c = await staffCompany();
  for (const { entry } of dispatcherRows) {
    const live = c.t.app.runtime.registry.get(entry.name);
    if (!live) throw new Error(`${entry.name} is not served`);
    live.invoke = async () => {
      reached.push(entry.name);
      throw RpcError.notImplemented(entry.name);
    };
  }
});

describe("the table", () => {
  test("has the company operations of every company service, checked by the dispatcher", () => {
    expect(dispatcherRows.map((r) => r.entry.name)).toEqual(
      expect.arrayContaining([
        "companyservice.get",
        "companyservice.update",
        "companyroleservice.list_by_company",
        "contractservice.create_company_contract",
        "businessdocumentservice.upload_document",
        "messageservice.create_company_message",
        "shareholderservice.initiate_transfer",
      ]),
    );
    expect(ROLE_KINDS).toEqual(expect.arrayContaining(["founder", "director", "shareholder", "founding_member"]));
  });

  test("docs/authorization.md says, for each row and role, what the role model says", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../docs/authorization.md"), "utf8").split("\n");
    const header = doc.find((l) => l.startsWith("| Operation | Role |"));
    const columns = header?.split("|").map((s) => s.trim()) ?? [];
    for (const { entry, rule } of rows) {
      const line = doc.find((l) => l.startsWith(`| \`${entry.name}\` |`));
      expect(line, `${entry.name} has no row`).toBeDefined();
      const cells = line!.split("|").map((s) => s.trim());
      for (const holder of [...ROLE_KINDS, OWNER]) {
        const cell = cells[columns.indexOf(holder)];
        expect(cell, `${entry.name} / ${holder}`).toBe(passesCompanyRole(rule.role, [holder]) ? "yes" : "-");
      }
    }
  });
});

describe.each(dispatcherRows)("$entry.name ($entry.auth)", (row) => {
  test.each(CASTS)("$name", async (cast) => {
    const caller = c.callers.get(cast.name)!;
    reached.length = 0;
    const r = await caller.client.rpc(row.entry.name, paramsFor(row, c.company, caller));
    const outcome = expected(row.rule.role, cast);
    if (outcome === "allowed") {
      expect(r.error, JSON.stringify(r.body)).toMatchObject({ code: -32004, data: { variant: "NotImplemented" } });
      expect(reached).toEqual([row.entry.name]);
    } else {
      const code = outcome === "NotFound" ? -32003 : -32002;
      expect(r.error, JSON.stringify(r.body)).toMatchObject({ code, data: { variant: outcome } });
      expect(reached, "the handler ran").toEqual([]);
    }
  });
});

describe("an unknown company", () => {
  test.each(dispatcherRows)("$entry.name: an unknown company id is NotFound, even for a director", async (row) => {
    const caller = c.callers.get("director")!;
    reached.length = 0;
    const r = await caller.client.rpc(row.entry.name, paramsFor(row, "FZ-2026-Y999999", caller));
    expect(r.error, JSON.stringify(r.body)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(reached).toEqual([]);
  });
});
