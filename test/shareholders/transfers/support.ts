import { createHash } from "node:crypto";
import type { ShareholderData, TransferResult } from "../../../generated/types.ts";
import { newKeypair, type TestKeypair } from "../../signatures/support.ts";
import type { Client, TestApp } from "../../support/app.ts";
import { insertCompany, insertRole, member, person } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";

export { newKeypair, type TestKeypair };

export interface Party {
  client: Client;
  resident: string;
}

export interface Cap {
  company: string;
  owner: Client;
  director: Party;
  /** Holds 100 units. */
  alice: Party;
  /** Holds 50 units. */
  bob: Party;
  /** A resident with a key and no role: the usual recipient. */
  carol: Party & { kp: TestKeypair };
  stranger: Party;
}

const row = (resident: string, units: number, name: string): ShareholderData => ({
  name,
  email: `${name.toLowerCase()}@example.org`,
  resident_id: resident,
  units,
  role: "shareholder",
});

/** A company whose cap table holds alice 100 and bob 50 units (with their shareholder roles), and its people. */
export async function capTableCompany(t: TestApp, companyExtra: Record<string, unknown> = {}): Promise<Cap> {
  const owner = await t.register(`st-owner-${Math.random().toString(36).slice(2)}@example.org`);
  const alice = await member(t);
  const bob = await member(t);
  const company = await insertCompany(t, owner.userId, {
    shareholders: [row(alice.resident, 100, "Alice"), row(bob.resident, 50, "Bob")],
    ...companyExtra,
  });
  await insertRole(t, company, alice.resident, "shareholder");
  await insertRole(t, company, bob.resident, "shareholder");
  const director = await person(t, company, "director");
  const carol = await withKey(await member(t));
  const stranger = await member(t);
  return { company, owner, director, alice, bob, carol, stranger };
}

/** Stores a fresh key for the party's resident through keypairservice. */
export async function withKey(p: Party, kp: TestKeypair = newKeypair()): Promise<Party & { kp: TestKeypair }> {
  await p.client.callOk("keypairservice.store_client_keypair", {
    entity_type: "resident",
    entity_id: p.resident,
    public_key: kp.publicKey,
    encrypted_private_key: kp.encrypted,
  });
  return { ...p, kp };
}

export async function capTable(t: TestApp, company: string): Promise<ShareholderData[]> {
  const [r] = await sql<{ shareholders: ShareholderData[] | string }>(
    t,
    `select shareholders from zone_company where company_id = ?`,
    [company],
  );
  const v = r?.shareholders ?? [];
  return typeof v === "string" ? JSON.parse(v) : v;
}

export const totalUnits = (table: ShareholderData[]) => table.reduce((s, r) => s + r.units, 0);
export const unitsOf = (table: ShareholderData[], resident: string) =>
  table.find((r) => r.resident_id === resident)?.units ?? 0;

/** Open roles of a subject in a company. */
export async function openRoles(t: TestApp, company: string, subject: string): Promise<string[]> {
  const rows = await sql<{ role: string }>(
    t,
    `select role from company_role where company_id = ? and subject_id = ? and valid_to is null order by role`,
    [company, subject],
  );
  return rows.map((r) => r.role);
}

/** The documented canonical terms, rebuilt here independently of the server's code. */
export function expectedHash(tr: TransferResult): string {
  const text =
    `{"type":"freezone.share_transfer.v1","transfer_id":${JSON.stringify(tr.sid)},` +
    `"company_id":${JSON.stringify(tr.company_id)},"from_resident_id":${JSON.stringify(tr.from_resident_id)},` +
    `"to_resident_id":${JSON.stringify(tr.to_resident_id)},"units":${tr.units},` +
    `"reason":${JSON.stringify(tr.reason)},"created_at":${JSON.stringify(tr.created_at)}}`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function initiate(cap: Cap, from: Party, to: string, units: number, reason?: string) {
  return from.client.call("shareholderservice.initiate_transfer", {
    company_id: cap.company,
    from_resident_id: from.resident,
    to_resident_id: to,
    units,
    ...(reason === undefined ? {} : { reason }),
  });
}

/** Everything a transfer operation may write, to compare around a refusal. */
export async function transferWrites(t: TestApp, company: string) {
  return {
    transfers: await sql(t, `select * from share_transfer where company_id = ? order by sid`, [company]),
    table: await capTable(t, company),
    roles: await sql(t, `select sid, valid_to from company_role where company_id = ? order by sid`, [company]),
  };
}
