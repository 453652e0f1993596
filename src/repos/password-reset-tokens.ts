import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { PasswordResetTokenEntity, type PasswordResetTokenRow } from "../../generated/entities.ts";

/** The PasswordResetToken table: one-time links by address, stored as SHA-256; expires_at in epoch seconds. */

export function insertResetToken(em: EntityManager, row: RequiredEntityData<PasswordResetTokenRow>) {
  return em.create(PasswordResetTokenEntity, row);
}

export function findResetToken(em: EntityManager, tokenHash: string): Promise<PasswordResetTokenRow | null> {
  return em.findOne(PasswordResetTokenEntity, { token_hash: tokenHash });
}

/** Spends the token; false when a concurrent request spent it first. */
export async function claimResetToken(em: EntityManager, sid: string, now: Date): Promise<boolean> {
  return (await em.nativeUpdate(PasswordResetTokenEntity, { sid, used: false }, { used: true, updated_at: now })) === 1;
}

/** Spends every open token of an address (a reset done with one makes the others useless). */
export function spendResetTokensOf(em: EntityManager, email: string, now: Date): Promise<number> {
  return em.nativeUpdate(PasswordResetTokenEntity, { email, used: false }, { used: true, updated_at: now });
}
