import { createHmac } from "node:crypto";

/**
 * Formatted ids (API.md "Values"): residents `<PREFIX>-<YYYY>-RA<6 digits>`, companies `...-Y<6 digits>`,
 * cooperatives `...-P<6 digits>`, numbered per prefix, year and type from a Counter row (src/repos/counters.ts);
 * opaque public ids `<PREFIX>X-<10 characters>` from the single global ExternalIdState counter.
 */

export type IdKind = "RA" | "Y" | "P";

/** The Counter row that numbers ids of one kind in one year, e.g. `FZ-2026-RA`. */
export function counterName(prefix: string, year: number, kind: IdKind): string {
  return `${prefix}-${year}-${kind}`;
}

/** Numbers are 1..999,999: six digits. */
export const MAX_ID_NUMBER = 999_999;

export function formattedId(prefix: string, year: number, kind: IdKind, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_ID_NUMBER) throw new RangeError(`id number out of range: ${n}`);
  return `${counterName(prefix, year, kind)}${String(n).padStart(6, "0")}`;
}

/** A cooperative is a ZoneCompany of a coop company type (`coop_*`): its ids are `P`, every other company's `Y`. */
export function companyIdKind(companyType: string): "Y" | "P" {
  return companyType.startsWith("coop_") ? "P" : "Y";
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const HALF_BITS = 24;
const HALF_MASK = (1 << HALF_BITS) - 1;
const ROUNDS = 4;

/** One Feistel round function: 24 bits of HMAC-SHA256(key, round ‖ half). */
function roundValue(key: Buffer, round: number, half: number): number {
  const input = Buffer.alloc(4);
  input.writeUInt32BE(((round & 0xff) << 24) | half);
  return createHmac("sha256", key).update(input).digest().readUIntBE(0, 3);
}

/**
 * A keyed permutation of 48-bit numbers (a four-round Feistel network over two 24-bit halves, Luby-Rackoff): two
 * counters never give the same value, and without the key the value says nothing about the counter.
 */
export function permute48(key: Buffer, counter: number): number {
  if (!Number.isSafeInteger(counter) || counter < 0 || counter >= 2 ** 48) throw new RangeError("counter out of range");
  let left = Math.floor(counter / 2 ** HALF_BITS);
  let right = counter & HALF_MASK;
  for (let round = 0; round < ROUNDS; round++) {
    const next = (left ^ roundValue(key, round, right)) & HALF_MASK;
    left = right;
    right = next;
  }
  return left * 2 ** HALF_BITS + right;
}

/** 48 bits as ten Crockford base-32 characters (no I, L, O, U: nothing to misread when spelled out). */
function base32(value: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** `<PREFIX>X-<opaque>`: the counter's permuted value; unique per counter under one mint key. */
export function externalId(prefix: string, mintKey: Buffer, counter: number): string {
  return `${prefix}X-${base32(permute48(mintKey, counter))}`;
}
