import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { TreasuryAccountEntity, type TreasuryAccountRow } from "../../generated/entities.ts";
import type { EntityType } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { type Cents, fromCents, toCents } from "../domain/money.ts";
import { nameKey } from "../domain/name-key.ts";

/**
 * The TreasuryAccount table. Account fields change here; balances move only through src/repos/treasury-ledger.ts
 * (conditional updates under row locks, each followed by a TreasuryTransaction row).
 */

export function findAccount(em: EntityManager, accountId: string): Promise<TreasuryAccountRow | null> {
  return em.findOne(TreasuryAccountEntity, { sid: accountId }, { refresh: true });
}

/** The account when it belongs to the owner, else null (another owner's account reads as missing). */
export async function findOwnedAccount(
  em: EntityManager,
  ownerType: EntityType,
  ownerId: string,
  accountId: string,
): Promise<TreasuryAccountRow | null> {
  const row = await findAccount(em, accountId);
  return row && row.owner_type === ownerType && row.owner_id === ownerId ? row : null;
}

/** An owner's accounts, oldest first (an owner has few: no bound needed beyond the list limit). */
export function listAccounts(em: EntityManager, ownerType: EntityType, ownerId: string): Promise<TreasuryAccountRow[]> {
  return em.find(
    TreasuryAccountEntity,
    { owner_type: ownerType, owner_id: ownerId },
    { orderBy: { sid: "asc" }, limit: 1000, refresh: true },
  );
}

/** Whether another account of the owner bears `name` or a look-alike of it (the same nameKey). */
export async function nameTaken(
  em: EntityManager,
  ownerType: EntityType,
  ownerId: string,
  name: string,
  exceptSid: string | null,
): Promise<boolean> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `select sid from "treasury_account" where owner_type = ? and owner_id = ? and name_key = ? and sid <> ?`,
    [ownerType, ownerId, nameKey(name), exceptSid ?? ""],
  );
  return rows.length > 0;
}

/** The new account, its `name_key` derived from its name here (never by the caller). */
export function insertAccount(
  em: EntityManager,
  row: Omit<RequiredEntityData<TreasuryAccountRow>, "name_key">,
): TreasuryAccountRow {
  return em.create(TreasuryAccountEntity, { ...row, name_key: nameKey(row.name) });
}

export interface AccountUpdate {
  name?: string;
  approval_threshold?: number;
  is_active?: boolean;
}

/**
 * Changes name, threshold or activity (never the balance). Deactivating is conditional on a zero balance and
 * nothing reserved at the moment of the update, so a concurrent funding or reservation cannot slip past it.
 */
export async function updateAccount(
  em: EntityManager,
  accountId: string,
  changes: AccountUpdate,
  now: Date,
): Promise<boolean> {
  const sets: string[] = ["updated_at = ?"];
  const params: unknown[] = [now];
  if (changes.name !== undefined) {
    sets.push("name = ?", "name_key = ?");
    params.push(changes.name, nameKey(changes.name));
  }
  if (changes.approval_threshold !== undefined) {
    sets.push("approval_threshold = ?");
    params.push(changes.approval_threshold.toFixed(2));
  }
  if (changes.is_active !== undefined) {
    sets.push("is_active = ?");
    params.push(changes.is_active);
  }
  const guard = changes.is_active === false ? " and balance = 0 and pending_out = 0" : "";
  const n = await affected(em, `update "treasury_account" set ${sets.join(", ")} where sid = ?${guard}`, [
    ...params,
    accountId,
  ]);
  return n === 1;
}

/** Money as a numeric literal the database reads exactly. */
export const moneyLiteral = (cents: Cents): string => fromCents(cents).toFixed(2);

/** A numeric column as cents. */
export const centsOf = (value: string | number): Cents => toCents(Number(value));
