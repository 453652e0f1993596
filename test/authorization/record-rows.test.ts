import { beforeAll, describe, expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { insertResident, member } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { CASTS, type CastSpec, type Company, companyRows, expected, staffCompany } from "./support.ts";

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

type Outcome = ReturnType<typeof expected>;

let file = 0;

/** Fixtures by method; a fixture gets the cast calling, for params naming the caller's own resident. */
const FIXTURES: Record<string, (c: Company, cast: CastSpec) => Promise<Fixture>> = {
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
  "governanceservice.cast_vote": async (c, cast) => {
    const voter = c.callers.get(cast.name)!.resident;
    const sid = await insertProposal(c, "2026-12-30T00:00:00.000Z");
    // The voter's power recorded with the proposal (what create_proposal writes): the vote needs some.
    await insertRow(c.t.app.runtime.orm, "ProposalVoterPower", {
      proposal_id: sid,
      company_id: c.company,
      subject_id: voter,
      voting_power: 10,
    });
    return {
      params: { proposal_id: sid, voter_id: voter, vote_value: "for", password: PASSWORD },
      untouched: async () =>
        (await count(c.t, "vote", "proposal_id = ?", [sid])) === 0 && (await proposalStatus(c, sid)) === "active",
    };
  },
  "governanceservice.execute_proposal": async (c, cast) => {
    const sid = await insertProposal(c, "2026-11-01T00:00:00.000Z", "passed");
    return {
      params: { proposal_id: sid, executor_id: c.callers.get(cast.name)!.resident },
      untouched: async () =>
        (await proposalStatus(c, sid)) === "passed" && (await count(c.t, "resolution", "proposal_id = ?", [sid])) === 0,
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
  "shareholderservice.cancel_transfer": async (c) => {
    const sid = await insertTransfer(c, "pending");
    return { params: { transfer_id: sid }, untouched: async () => (await transferStatus(c, sid)) === "pending" };
  },
  "shareholderservice.complete_transfer": async (c) => {
    const sid = await insertTransfer(c, "approved");
    return { params: { transfer_id: sid }, untouched: async () => (await transferStatus(c, sid)) === "approved" };
  },
};

/**
 * Rows whose rule is not the generic `expected(role, cast)`, each from its spec description:
 * - execute_proposal: "executor_id must be a resident the caller owns or acts for and must hold the director (or
 *   founder) role (Forbidden otherwise)": the owner without a role and an administrator pass the company check, but
 *   their own resident holds no director role, so they get Forbidden.
 * - cancel_transfer: "The giver (a resident the caller owns or acts for) or a director of the company may cancel
 *   (company read from the transfer; other members get Forbidden, others NotFound)": no cast is the giver here, so
 *   the director rule decides.
 */
const OUTCOMES: Record<string, (cast: CastSpec) => Outcome> = {
  "governanceservice.execute_proposal": (cast) => {
    const outcome = expected("director", cast);
    const executorHoldsNoRole = cast.name === "owner without a role" || cast.name === "administrator (session)";
    return outcome === "allowed" && executorHoldsNoRole ? "Forbidden" : outcome;
  },
  "shareholderservice.cancel_transfer": (cast) => expected("director", cast),
};

/** A proposal of the company whose voting ended (or ends) at `endsAt`, inserted straight. */
async function insertProposal(c: Company, endsAt: string, status = "active"): Promise<string> {
  const row = await insertRow(c.t.app.runtime.orm, "Proposal", {
    company_id: c.company,
    title: "Fixture",
    description: "A fixture proposal.",
    category: "governance",
    kind: "ordinary",
    status,
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

/** A giver outside the casts, holding plenty of units on the company's cap table (written once). */
let giver: string | undefined;

async function theGiver(c: Company) {
  if (giver) return giver;
  const m = await member(c.t);
  const row = {
    name: "Giver",
    email: "giver@example.org",
    resident_id: m.resident,
    units: 1_000_000,
    role: "shareholder",
  };
  await sql(c.t, `update zone_company set shareholders = cast(? as jsonb) where company_id = ?`, [
    JSON.stringify([row]),
    c.company,
  ]);
  giver = m.resident;
  return giver;
}

/** A transfer of one unit from the giver to a fresh resident no user owns (no cast's resident). */
async function insertTransfer(c: Company, status: "pending" | "approved"): Promise<string> {
  const from = await theGiver(c);
  const to = await insertResident(c.t, null);
  const row = await insertRow(c.t.app.runtime.orm, "ShareTransfer", {
    company_id: c.company,
    from_resident_id: from,
    to_resident_id: to,
    units: 1,
    reason: null,
    status,
    transfer_hash: "0".repeat(64),
    to_signature: status === "approved" ? "fixture" : null,
    approved_at: status === "approved" ? new Date("2026-11-20T00:00:00.000Z") : null,
  });
  return String(row["sid"]);
}

async function transferStatus(c: Company, sid: string): Promise<string | undefined> {
  const rows = await sql<{ status: string }>(c.t, `select status from "share_transfer" where sid = ?`, [sid]);
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
    const fixture = await FIXTURES[row.entry.name]!(c, cast);
    const r = await c.callers.get(cast.name)!.client.rpc(row.entry.name, fixture.params);
    const outcome = OUTCOMES[row.entry.name]?.(cast) ?? expected(row.rule.role, cast);
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
