import type { EntityManager } from "@mikro-orm/postgresql";
import {
  ProposalEntity,
  type ProposalRow,
  ProposalVoterPowerEntity,
  ResolutionEntity,
  type ResolutionRow,
  VoteEntity,
  type VoteRow,
} from "../../generated/entities.ts";
import type { ProposalStatus } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { fromMicro } from "../domain/units.ts";

/** Proposal, ProposalVoterPower (the per-voter snapshot), Vote and Resolution rows (issue 17). */

const MAX_LIST = 500;

export async function insertProposal(
  em: EntityManager,
  row: ProposalRow,
  powers: ReadonlyMap<string, number>,
): Promise<void> {
  await em.insert(ProposalEntity, row);
  const rows = [...powers].map(([subject, power]) => ({
    sid: uuidv7(row.created_at),
    proposal_id: row.sid,
    company_id: row.company_id,
    subject_id: subject,
    voting_power: power,
    created_at: row.created_at,
    updated_at: row.created_at,
  }));
  if (rows.length > 0) await em.insertMany(ProposalVoterPowerEntity, rows);
}

export function findProposal(em: EntityManager, sid: string): Promise<ProposalRow | null> {
  return em.findOne(ProposalEntity, { sid }, { disableIdentityMap: true });
}

export function listProposalsOf(
  em: EntityManager,
  companyId: string,
  status: ProposalStatus | undefined,
): Promise<ProposalRow[]> {
  return em.find(ProposalEntity, status ? { company_id: companyId, status } : { company_id: companyId }, {
    orderBy: { created_at: "desc", sid: "desc" },
    limit: MAX_LIST,
    disableIdentityMap: true,
  });
}

/** The subject's power recorded with the proposal's snapshot, or null when it held none. */
export async function snapshotPower(em: EntityManager, proposalId: string, subjectId: string): Promise<number | null> {
  const row = await em.findOne(
    ProposalVoterPowerEntity,
    { proposal_id: proposalId, subject_id: subjectId },
    { disableIdentityMap: true },
  );
  return row ? row.voting_power : null;
}

/** Inserts a vote; the unique index (proposal_id, voter_id) refuses a second one (UniqueConstraintViolation). */
export async function insertVote(em: EntityManager, row: VoteRow): Promise<void> {
  await em.insert(VoteEntity, row);
}

export function votesOf(em: EntityManager, proposalId: string): Promise<VoteRow[]> {
  return em.find(
    VoteEntity,
    { proposal_id: proposalId },
    { orderBy: { created_at: "desc", sid: "desc" }, disableIdentityMap: true },
  );
}

export interface VoteSums {
  votesFor: number;
  votesAgainst: number;
  votesAbstain: number;
}

/**
 * The power of the votes per value. Each vote's power is summed as whole micro-units (round(power x 10^6), an
 * integer), so the sums are exact (at most MAX_UNITS units in all, src/domain/units.ts) rather than a sum of doubles.
 */
export async function voteSums(em: EntityManager, proposalId: string): Promise<VoteSums> {
  const rows = await sqlRows<{ f: number | string | null; a: number | string | null; x: number | string | null }>(
    em,
    `select sum(case when vote_value = 'for' then round(voting_power * 1000000)::bigint else 0 end) as f,
            sum(case when vote_value = 'against' then round(voting_power * 1000000)::bigint else 0 end) as a,
            sum(case when vote_value = 'abstain' then round(voting_power * 1000000)::bigint else 0 end) as x
     from "vote" where proposal_id = ?`,
    [proposalId],
  );
  const r = rows[0];
  const units = (micro: number | string | null | undefined) => fromMicro(Number(micro ?? 0));
  return { votesFor: units(r?.f), votesAgainst: units(r?.a), votesAbstain: units(r?.x) };
}

/** Locks the proposal row until the call commits (votes and tallies of one proposal run one after the other). */
export async function lockProposal(em: EntityManager, sid: string): Promise<void> {
  await sqlRows(em, `select sid from "proposal" where sid = ? for update`, [sid]);
}

/** Moves the proposal from `from` with the given changes; false when it was no longer in `from`. */
export async function moveProposal(
  em: EntityManager,
  sid: string,
  from: ProposalStatus,
  changes: Partial<ProposalRow>,
): Promise<boolean> {
  const changed = await em.nativeUpdate(ProposalEntity, { sid, status: from }, changes);
  return changed === 1;
}

/** Every `active` proposal whose voting ended at or before `endedBefore` becomes `expired`; the sids moved. */
export async function expireProposals(em: EntityManager, endedBefore: Date, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "proposal" set status = 'expired', updated_at = ?
     where status = 'active' and voting_ends_at <= ? returning sid`,
    [now, endedBefore],
  );
  return rows.map((r) => r.sid);
}

export async function insertResolution(em: EntityManager, row: ResolutionRow): Promise<void> {
  await em.insert(ResolutionEntity, row);
}

export function listResolutionsOf(em: EntityManager, companyId: string): Promise<ResolutionRow[]> {
  return em.find(
    ResolutionEntity,
    { company_id: companyId },
    { orderBy: { executed_at: "desc", sid: "desc" }, limit: MAX_LIST, disableIdentityMap: true },
  );
}
