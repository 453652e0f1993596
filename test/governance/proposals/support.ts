import type { CallReply, Client, TestApp } from "../../support/app.ts";
import { PASSWORD } from "../../support/app.ts";
import { insertCompany, insertRole, member } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";

/** Fixtures of the proposal tests: companies with a cap table and roles, and short calls. */

export interface Holder {
  client: Client;
  resident: string;
}

export interface StandardCompany {
  owner: Client;
  company: string;
  director: Holder;
  /** 60 units. */
  a: Holder;
  /** 40 units. */
  b: Holder;
}

const capRow = (resident: string | null, units: number, n: number) => ({
  name: `Holder ${n}`,
  email: `holder${n}@example.org`,
  resident_id: resident,
  units,
  role: null,
});

/** A standard-voting company: a director (no units) and shareholders a (60 units) and b (40 units). */
export async function standardCompany(t: TestApp, units: [number, number] = [60, 40]): Promise<StandardCompany> {
  const owner = await t.register(`owner-${Math.random().toString(36).slice(2)}@example.org`);
  const director = await member(t);
  const a = await member(t);
  const b = await member(t);
  const company = await insertCompany(t, owner.userId, {
    shareholders: [capRow(a.resident, units[0], 1), capRow(b.resident, units[1], 2)],
  });
  await insertRole(t, company, director.resident, "director");
  await insertRole(t, company, a.resident, "shareholder");
  await insertRole(t, company, b.resident, "shareholder");
  return { owner, company, director, a, b };
}

export async function setCapTable(t: TestApp, company: string, rows: [string | null, number][]): Promise<void> {
  const json = JSON.stringify(rows.map(([r, u], i) => capRow(r, u, i)));
  await sql(t, `update "zone_company" set shareholders = ?::jsonb where company_id = ?`, [json, company]);
}

export interface ProposalOptions {
  kind?: "ordinary" | "special" | "board";
  voting_days?: number;
  allow_abstention?: boolean;
  title?: string;
}

export function propose(c: Client, company: string, o: ProposalOptions = {}) {
  return c.call("governanceservice.create_proposal", {
    company_id: company,
    title: o.title ?? "Adopt the plan",
    description: "We adopt the plan.",
    category: "strategic",
    kind: o.kind ?? "ordinary",
    voting_days: o.voting_days ?? 7,
    allow_abstention: o.allow_abstention ?? false,
  });
}

export async function proposeOk(c: Client, company: string, o: ProposalOptions = {}) {
  const r = await propose(c, company, o);
  if ("error" in r) throw new Error(`create_proposal failed: ${JSON.stringify(r.error)}`);
  return r.result;
}

export function vote(
  c: Client,
  proposal: string,
  voter: string,
  value: "for" | "against" | "abstain",
  password = PASSWORD,
): Promise<CallReply<unknown>> {
  return c.call("governanceservice.cast_vote", {
    proposal_id: proposal,
    voter_id: voter,
    vote_value: value,
    password,
  });
}

export async function voteOk(c: Client, proposal: string, voter: string, value: "for" | "against" | "abstain") {
  const r = await vote(c, proposal, voter, value);
  if ("error" in r) throw new Error(`cast_vote failed: ${JSON.stringify(r.error)}`);
  return r.result;
}

/** Every row the proposal operations write, for "refused and nothing written". */
export async function governanceWrites(t: TestApp): Promise<unknown> {
  return {
    proposals: await sql(
      t,
      `select sid, status, votes_for, votes_against, votes_abstain, total_voted, resolution_id, updated_at
       from "proposal" order by sid`,
    ),
    votes: await sql(t, `select sid from "vote" order by sid`),
    powers: await sql(t, `select sid from "proposal_voter_power" order by sid`),
    resolutions: await sql(t, `select sid from "resolution" order by sid`),
    audiences: await sql(t, `select sid from "document_audience" order by sid`),
    counters: await sql(t, `select name, value from "counter" order by name`),
  };
}

export const GOV = (variant: string) => ({ type: "GovernanceError", variant });
