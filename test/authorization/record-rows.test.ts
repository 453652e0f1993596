import { beforeAll, describe, expect, test } from "vitest";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { CASTS, type Company, companyRows, expected, staffCompany } from "./support.ts";

/**
 * Company rows whose method takes a record id, not a company id: the handler reads the company from the record and
 * checks the role with the dispatcher's rule (docs/decisions.md "Company roles need a company id in the params").
 * Each needs a fresh record per call, so a row is tested once its fixture is written here; the others are listed as
 * todo (governance and shareholder handlers are stubs until the next issue). Allowed calls must succeed (their
 * fixture makes a record they can act on); refused ones answer the rule's refusal and leave the record unchanged.
 */

interface Fixture {
  /** Params naming a fresh record of the company. */
  params: Record<string, unknown>;
  /** Whether the record is as the fixture made it (a refused call must leave it so). */
  untouched: () => Promise<boolean>;
}

let file = 0;

const FIXTURES: Record<string, (c: Company) => Promise<Fixture>> = {
  "businessdocumentservice.delete_document": async (c) => {
    const director = c.callers.get("director")!;
    c.t.clock.advance(1);
    const doc = await director.client.callOk("businessdocumentservice.upload_document", {
      company_id: c.company,
      document_type: "other",
      name: "Minutes",
      file_url: `https://files.example.org/minutes-${++file}.pdf`,
      uploaded_by: director.resident,
    });
    return {
      params: { document_id: doc.sid },
      untouched: async () => (await count(c.t, "business_document", "sid = ?", [doc.sid])) === 1,
    };
  },
  "governanceservice.get_proposal": async (c) => {
    const sid = await insertProposal(c, "2026-12-30T00:00:00.000Z");
    return { params: { proposal_id: sid }, untouched: async () => (await proposalStatus(c, sid)) === "active" };
  },
  "governanceservice.tally_votes": async (c) => {
    const sid = await insertProposal(c, "2026-11-01T00:00:00.000Z");
    return { params: { proposal_id: sid }, untouched: async () => (await proposalStatus(c, sid)) === "active" };
  },
};

/** An active proposal of the company whose voting ended (or ends) at `endsAt`, inserted straight. */
async function insertProposal(c: Company, endsAt: string): Promise<string> {
  const row = await insertRow(c.t.app.runtime.orm, "Proposal", {
    company_id: c.company,
    title: "Fixture",
    description: "A fixture proposal.",
    category: "governance",
    kind: "ordinary",
    status: "active",
    proposer_id: c.callers.get("director")!.resident,
    voting_starts_at: new Date("2026-10-01T00:00:00.000Z"),
    voting_ends_at: new Date(endsAt),
    quorum_percentage: 50,
    passing_threshold: 50,
    total_issued_power_snapshot: 100,
    resolution_id: null,
  });
  return String(row["sid"]);
}

async function proposalStatus(c: Company, sid: string): Promise<string | undefined> {
  const rows = await sql<{ status: string }>(c.t, `select status from "proposal" where sid = ?`, [sid]);
  return rows[0]?.status;
}

const rows = companyRows().filter((r) => r.rule.source.by === "record");
const covered = rows.filter((r) => FIXTURES[r.entry.name]);

let c: Company;

beforeAll(async () => {
  c = await staffCompany();
});

describe.each(covered)("$entry.name ($entry.auth, company from $rule.source.param)", (row) => {
  test.each(CASTS)("$name", async (cast) => {
    const fixture = await FIXTURES[row.entry.name]!(c);
    const r = await c.callers.get(cast.name)!.client.rpc(row.entry.name, fixture.params);
    const outcome = expected(row.rule.role, cast);
    if (outcome === "allowed") {
      expect(r.error, JSON.stringify(r.body)).toBeUndefined();
    } else {
      const code = outcome === "NotFound" ? -32003 : -32002;
      expect(r.error, JSON.stringify(r.body)).toMatchObject({ code, data: { variant: outcome } });
      expect(await fixture.untouched(), "a refused call changed the record").toBe(true);
    }
  });
});

describe("company rows checked by the handler from a record, without a fixture yet", () => {
  for (const { entry, rule } of rows.filter((r) => !FIXTURES[r.entry.name])) {
    test.todo(`${entry.name}: ${rule.role}, company from ${rule.source.param}`);
  }
});
