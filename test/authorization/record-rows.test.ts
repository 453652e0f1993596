import { beforeAll, describe, expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { insertResident, insertRole, member } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { companyAccount, fund } from "../treasury/support.ts";
import { CASTS, type CastSpec, type Company, companyRows, expected, staffCompany } from "./support.ts";

/**
 * Company rows whose method takes a record id, not a company id: the handler reads the company from the record and
 * checks the role with the dispatcher's rule (docs/decisions.md "Company roles need a company id in the params").
 * Each needs a fresh record per call, so a row is tested once its fixture is written here; a row without one is
 * listed as todo. Allowed calls must succeed (their fixture makes a record they can act on); refused ones answer the
 * rule's refusal and leave the record unchanged. The outcome is `expected(role, cast)` unless OUTCOMES gives the
 * row's own rule (from its spec description).
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
  "governanceservice.conduct_review": async (c, cast) => {
    const subject = await insertResident(c.t, null);
    const notice = await insertAction(c, { kind: "notice", subject, due_by: PAST_DUE });
    return {
      params: { parent_action_id: notice, content: CONTENT, created_by: c.callers.get(cast.name)!.resident },
      untouched: async () => (await nextSteps(c, notice)) === 0,
    };
  },
  "governanceservice.enforce_decision": async (c, cast) => {
    const subject = await insertResident(c.t, null);
    await insertRole(c.t, c.company, subject, "shareholder");
    const notice = await insertAction(c, { kind: "notice", subject, due_by: PAST_DUE });
    const review = await insertAction(c, { kind: "review", subject, parent: notice, due_by: PAST_DUE });
    const decision = await insertAction(c, {
      kind: "decision",
      subject,
      parent: review,
      due_by: PAST_DUE,
      outcome: "remove",
    });
    return {
      params: { decision_id: decision, enforced_by: c.callers.get(cast.name)!.resident },
      untouched: async () =>
        (await count(c.t, "company_role", "company_id = ? and subject_id = ? and valid_to is null", [
          c.company,
          subject,
        ])) === 1,
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
  "governanceservice.file_appeal": async (c, cast) => {
    // The caller's own resident is the member concerned (see the note above OUTCOMES).
    const subject = c.callers.get(cast.name)!.resident;
    const notice = await insertAction(c, { kind: "notice", subject, due_by: PAST_DUE });
    const review = await insertAction(c, { kind: "review", subject, parent: notice, due_by: PAST_DUE });
    const decision = await insertAction(c, {
      kind: "decision",
      subject,
      parent: review,
      due_by: OPEN_DUE,
      outcome: "warning",
    });
    return {
      params: { parent_action_id: decision, content: CONTENT, created_by: subject },
      untouched: async () => (await nextSteps(c, decision)) === 0,
    };
  },
  "governanceservice.get_proposal": async (c) => {
    const sid = await insertProposal(c, "2026-12-30T00:00:00.000Z");
    return { params: { proposal_id: sid }, untouched: async () => (await proposalStatus(c, sid)) === "active" };
  },
  "governanceservice.issue_decision": async (c, cast) => {
    const subject = await insertResident(c.t, null);
    const notice = await insertAction(c, { kind: "notice", subject, due_by: PAST_DUE });
    const review = await insertAction(c, { kind: "review", subject, parent: notice, due_by: OPEN_DUE });
    return {
      params: {
        parent_action_id: review,
        outcome: "warning",
        decided_by_role: "governance_board",
        content: CONTENT,
        created_by: c.callers.get(cast.name)!.resident,
      },
      untouched: async () => (await nextSteps(c, review)) === 0,
    };
  },
  "governanceservice.submit_response": async (c, cast) => {
    // The caller's own resident is the member concerned (see the note above OUTCOMES).
    const subject = c.callers.get(cast.name)!.resident;
    const notice = await insertAction(c, { kind: "notice", subject, due_by: OPEN_DUE });
    return {
      params: { parent_action_id: notice, content: CONTENT, created_by: subject },
      untouched: async () => (await nextSteps(c, notice)) === 0,
    };
  },
  "governanceservice.tally_votes": async (c) => {
    const sid = await insertProposal(c, "2026-11-01T00:00:00.000Z");
    return { params: { proposal_id: sid }, untouched: async () => (await proposalStatus(c, sid)) === "active" };
  },
  "shareholderservice.cancel_transfer": async (c) => {
    const sid = await insertTransfer(c, "pending");
    return { params: { transfer_id: sid }, untouched: async () => (await transferStatus(c, sid)) === "pending" };
  },
  "shareholderservice.execute_dividend": async (c) => {
    const row = await insertRow(c.t.app.runtime.orm, "DividendDistribution", {
      company_id: c.company,
      total_amount: 1,
      currency: "EUR",
      source_account_id: await dividendSource(c),
      distribution_date: new Date("2026-11-01T00:00:00.000Z"),
      status: "approved",
      requires_vote: false,
      proposal_id: null,
      initiated_by: c.callers.get("director")!.resident,
      approved_at: new Date("2026-11-01T00:00:00.000Z"),
    });
    const sid = String(row["sid"]);
    return {
      params: { dividend_id: sid },
      untouched: async () =>
        (await sql<{ status: string }>(c.t, `select status from dividend_distribution where sid = ?`, [sid]))[0]
          ?.status === "approved" &&
        (await count(c.t, "treasury_transaction", "reference = ?", [`dividend:${sid}`])) === 0,
    };
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
 * - submit_response, file_appeal: "Only the member concerned answers: created_by must equal the notice's subject and
 *   be a resident the caller owns or acts for (company:member, company read from the parent: no current role in it is
 *   NotFound, another member Forbidden)" (file_appeal: "created_by must equal the subject"). Their fixtures make the
 *   caller's own resident the subject, so the generic member rule is the expected outcome (no entry here).
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

const CONTENT = JSON.stringify({ text: "Fixture step." });
/** A due_by already passed (the next step may follow a silent notice, a decision is enforceable). */
const PAST_DUE = "2026-11-01T00:00:00.000Z";
/** A due_by still open (a response or an appeal may still be filed). */
const OPEN_DUE = "2026-12-30T00:00:00.000Z";

/** A discipline chain row of the company, inserted straight (a decision carries its outcome). */
async function insertAction(
  c: Company,
  a: { kind: string; subject: string; parent?: string; due_by: string; outcome?: string },
): Promise<string> {
  const director = c.callers.get("director")!.resident;
  const decided = a.kind === "decision";
  const row = await insertRow(c.t.app.runtime.orm, "GovernanceAction", {
    company_id: c.company,
    subject_resident_id: a.subject,
    kind: a.kind,
    parent_action_sid: a.parent ?? null,
    content: CONTENT,
    due_by: new Date(a.due_by),
    decided_at: decided ? new Date("2026-10-15T00:00:00.000Z") : null,
    decided_by_role: decided ? "governance_board" : null,
    decided_by_subject_id: decided ? director : null,
    outcome: a.outcome ?? null,
    created_by: director,
  });
  return String(row["sid"]);
}

/** Rows answering a chain row (a refused step must add none). */
function nextSteps(c: Company, sid: string): Promise<number> {
  return count(c.t, "governance_action", "parent_action_sid = ?", [sid]);
}

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

/** The company's EUR account the fixture dividends are paid from (funded once, each dividend takes 1). */
let source: string | undefined;

async function dividendSource(c: Company): Promise<string> {
  if (source) return source;
  const account = await companyAccount(c.callers.get("director")!.client, c.company, { currency: "EUR" });
  await fund(c.callers.get("administrator (session)")!.client, account, 10_000);
  source = account.sid;
  return source;
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

const rows = companyRows().filter((r) => r.rule.record !== "ZoneCompany");
const covered = rows.filter((r) => FIXTURES[r.entry.name]);

let c: Company;

beforeAll(async () => {
  c = await staffCompany();
});

describe.each(covered)("$entry.name ($entry.auth, company from $rule.param)", (row) => {
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

const todo = rows.filter((r) => !FIXTURES[r.entry.name]);

// A describe block without tests fails, so it is declared only while some row still lacks a fixture.
if (todo.length > 0) {
  describe("company rows checked by the handler from a record, without a fixture yet", () => {
    for (const { entry, rule } of todo) test.todo(`${entry.name}: ${rule.role}, company from ${rule.param}`);
  });
}
