import { beforeEach, describe, expect, test } from "vitest";
import { MAX_UNITS } from "../../src/domain/units.ts";
import { COMPANY_DATA, draftTables, type Person, rawCall, shareRow } from "../entity-drafts/support.ts";
import { capTableCompany, initiate, transferWrites } from "../shareholders/transfers/support.ts";
import type { TestApp } from "../support/app.ts";
import { insertCompany, insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";
import { proposeOk, voteOk } from "./proposals/support.ts";

// Issue 29 item 7: share units are declared at most 1,000,000,000 (6 decimals) per value and per cap table; a value
// above the declared maximum is invalid params before any handler runs, and the tally is exact at the maximum.

let t: TestApp;
beforeEach(async () => {
  t = await startFinanceApp();
});

const TOO_MANY = [1e308, MAX_UNITS + 1];

function companyDraftParams(creator: Person, units: number[]) {
  return {
    entity_type: "company",
    entity_name: "Harbour Software FZC",
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_DATA),
    shareholders: units.map((u, i) => ({ ...shareRow(creator, u, `Holder ${i}`), email: `holder${i}@example.org` })),
  };
}

describe("units above the declared maximum", () => {
  test.each(TOO_MANY)("a draft holding %d units is invalid params; nothing written", async (units) => {
    const founder = await member(t);
    await refusedNoWrite(
      () => draftTables(t),
      () => rawCall(founder, "entitydraftservice.create_draft", companyDraftParams(founder, [units])),
      -32602,
      null,
    );
  });

  test("a draft whose rows pass the maximum together is InvalidInput; at the maximum it is created", async () => {
    const founder = await member(t);
    await refusedNoWrite(
      () => draftTables(t),
      () => rawCall(founder, "entitydraftservice.create_draft", companyDraftParams(founder, [6e8, 4e8 + 0.000001])),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
    const d = await founder.client.callOk(
      "entitydraftservice.create_draft",
      companyDraftParams(founder, [6e8, 4e8]) as never,
    );
    expect(d.shareholders.map((s) => s.units)).toEqual([6e8, 4e8]);
  });

  test.each(TOO_MANY)("an invitation or a transfer of %d units is invalid params; nothing written", async (units) => {
    const cap = await capTableCompany(t);
    await refusedNoWrite(
      () => transferWrites(t, cap.company),
      () => initiate(cap, cap.alice, cap.carol.resident, units),
      -32602,
      null,
    );
    const invites = () => sql(t, `select sid from shareholder_invite where company_id = ?`, [cap.company]);
    await refusedNoWrite(
      invites,
      () =>
        cap.director.client.call("shareholderservice.invite_shareholder", {
          company_id: cap.company,
          inviter_id: cap.director.resident,
          invitee_email: "new@example.org",
          proposed_units: units,
        }),
      -32602,
      null,
    );
  });

  test("accepting an invitation that would take the cap table past the maximum is InvalidState; nothing written", async () => {
    const owner = await t.register("max-owner@example.org");
    const full = await member(t);
    const company = await insertCompany(t, owner.userId, {
      shareholders: [
        { name: "Full", email: "full@example.org", resident_id: full.resident, units: MAX_UNITS, role: null },
      ],
    });
    const director = await person(t, company, "director");
    const who = await member(t);
    await sql(t, `update "user" set email_verified = true where sid = ?`, [who.client.userId]);
    await director.client.callOk("shareholderservice.invite_shareholder", {
      company_id: company,
      inviter_id: director.resident,
      invitee_email: who.client.email,
      proposed_units: 1,
    });
    const [mail] = await sql<{ body_text: string }>(
      t,
      `select body_text from email_outbox where template = 'shareholder_invite' order by sid desc limit 1`,
    );
    const token = /Or enter this code: (\S+)/.exec(mail?.body_text ?? "")?.[1] ?? "";
    const writes = async () => ({
      invites: await sql(t, `select status, resident_id from shareholder_invite where company_id = ?`, [company]),
      roles: await sql(t, `select sid from company_role where company_id = ? order by sid`, [company]),
      company: await sql(t, `select shareholders, updated_at from zone_company where company_id = ?`, [company]),
    });
    await refusedNoWrite(
      writes,
      () => who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident }),
      -32005,
      { type: "ShareholderError", variant: "InvalidState" },
    );
  });
});

describe("the tally at the maximum", () => {
  test("a sole holder of 1,000,000,000 units voting for passes with for_percentage 100", async () => {
    const owner = await t.register("tally-max@example.org");
    const holder = await member(t);
    const company = await insertCompany(t, owner.userId, {
      shareholders: [
        { name: "Sole", email: "sole@example.org", resident_id: holder.resident, units: MAX_UNITS, role: null },
      ],
    });
    await insertRole(t, company, holder.resident, "shareholder");
    const director = await person(t, company, "director");
    const p = await proposeOk(director.client, company, { kind: "special", voting_days: 1 });
    expect(p.total_issued_power_snapshot).toBe(MAX_UNITS);
    await voteOk(holder.client, p.sid, holder.resident, "for");
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "passed", passed: true, for_percentage: 100, total_voted: MAX_UNITS });
  });

  test("micro-unit holdings are summed exactly: 0.1 + 0.2 for against 0.3 is exactly 50 %", async () => {
    const owner = await t.register("tally-micro@example.org");
    const [a, b, c] = [await member(t), await member(t), await member(t)];
    const row = (p: { resident: string }, units: number, n: number) => ({
      name: `H${n}`,
      email: `h${n}@example.org`,
      resident_id: p.resident,
      units,
      role: null,
    });
    const company = await insertCompany(t, owner.userId, {
      shareholders: [row(a, 0.1, 1), row(b, 0.2, 2), row(c, 0.3, 3)],
    });
    for (const h of [a, b, c]) await insertRole(t, company, h.resident, "shareholder");
    const director = await person(t, company, "director");
    const p = await proposeOk(director.client, company, { kind: "ordinary", voting_days: 1 });
    expect(p.total_issued_power_snapshot).toBe(0.6);
    await voteOk(a.client, p.sid, a.resident, "for");
    await voteOk(b.client, p.sid, b.resident, "for");
    await voteOk(c.client, p.sid, c.resident, "against");
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "rejected", votes_for: 0.3, votes_against: 0.3, total_voted: 0.6 });
  });
});
