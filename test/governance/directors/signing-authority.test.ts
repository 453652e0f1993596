import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADDRESS } from "../../company-service/support.ts";
import { newKeypair } from "../../signatures/support.ts";
import type { Client, TestApp } from "../../support/app.ts";
import { person, startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import { auditRows, governanceWrites, ownedCompany } from "./support.ts";

// governanceservice.grant_signing_authority / revoke_signing_authority (issue 17): the SigningAuthority record, held
// by current directors only, one active row per company and resident; its holders read the company's encrypted key.

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const gov = (variant: string) => ({ type: "GovernanceError", variant });

function grant(c: Client, company: string, resident: string, by: string) {
  return c.call("governanceservice.grant_signing_authority", {
    company_id: company,
    resident_id: resident,
    granted_by: by,
  });
}

function revoke(c: Client, company: string, resident: string, by: string) {
  return c.call("governanceservice.revoke_signing_authority", {
    company_id: company,
    resident_id: resident,
    revoked_by: by,
  });
}

async function board() {
  const { owner, ownerResident, company } = await ownedCompany(t, { address: ADDRESS });
  return {
    owner,
    ownerResident,
    company,
    chair: await person(t, company, "director"),
    other: await person(t, company, "director"),
  };
}

describe("governanceservice.grant_signing_authority", () => {
  test("a director grants another director: an active row from now, audited on the record", async () => {
    const { company, chair, other } = await board();
    const r = await chair.client.callOk("governanceservice.grant_signing_authority", {
      company_id: company,
      resident_id: other.resident,
      granted_by: chair.resident,
    });
    expect(r).toEqual({
      sid: r.sid,
      company_id: company,
      resident_id: other.resident,
      status: "active",
      valid_from: t.clock.now().toISOString(),
      valid_to: null,
    });
    const rows = await sql(t, `select granted_by, status from signing_authority where sid = ?`, [r.sid]);
    expect(rows).toEqual([{ granted_by: chair.resident, status: "active" }]);
    expect((await auditRows(t, "grant_signing_authority")).filter((a) => a.target_ref === r.sid)).toEqual([
      { subject_id: chair.client.userId, target_ref: r.sid, target_type: "signing_authority", allowed: true },
    ]);
  });

  test("a resident who is not a current director is InvalidState; nothing written, the denial audited", async () => {
    const { company, chair } = await board();
    const shareholder = await person(t, company, "shareholder");
    const before = (await auditRows(t, "grant_signing_authority")).length;
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => grant(chair.client, company, shareholder.resident, chair.resident),
      -32005,
      gov("InvalidState"),
    );
    const audit = await auditRows(t, "grant_signing_authority");
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)).toMatchObject({ subject_id: chair.client.userId, allowed: false });
  });

  test("a second grant is AlreadyExists; an unknown resident NotFound; nothing written", async () => {
    const { company, chair, other } = await board();
    await grant(chair.client, company, other.resident, chair.resident);
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => grant(chair.client, company, other.resident, chair.resident),
      -32005,
      gov("AlreadyExists"),
    );
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => grant(chair.client, company, "FZ-2026-RA999999", chair.resident),
      -32003,
      gov("NotFound"),
    );
  });

  test("concurrent grants to one director write one active row", async () => {
    const { company, chair, other } = await board();
    const replies = await Promise.all(
      [1, 2, 3].map(() => grant(chair.client, company, other.resident, chair.resident)),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    const rows = await sql(t, `select status from signing_authority where company_id = ? and resident_id = ?`, [
      company,
      other.resident,
    ]);
    expect(rows).toEqual([{ status: "active" }]);
  });

  test("a shareholder may not grant (Forbidden); a suspended company is InvalidState; nothing written", async () => {
    const { company, other } = await board();
    const shareholder = await person(t, company, "shareholder");
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => grant(shareholder.client, company, other.resident, shareholder.resident),
      -32002,
      null,
    );
    const suspended = await ownedCompany(t, { status: "suspended" });
    const d = await person(t, suspended.company, "director");
    await refusedNoWrite(
      () => governanceWrites(t, suspended.company),
      () => grant(d.client, suspended.company, d.resident, d.resident),
      -32005,
      gov("InvalidState"),
    );
  });
});

describe("governanceservice.revoke_signing_authority", () => {
  test("revokes (status revoked, valid_to now, revoked_by); a second revoke returns the row unchanged", async () => {
    const { company, chair, other } = await board();
    const granted = await chair.client.callOk("governanceservice.grant_signing_authority", {
      company_id: company,
      resident_id: other.resident,
      granted_by: chair.resident,
    });
    t.clock.advance(30);
    const r = await chair.client.callOk("governanceservice.revoke_signing_authority", {
      company_id: company,
      resident_id: other.resident,
      revoked_by: chair.resident,
    });
    expect(r).toMatchObject({ sid: granted.sid, status: "revoked", valid_to: t.clock.now().toISOString() });
    const [row] = await sql(t, `select revoked_by from signing_authority where sid = ?`, [granted.sid]);
    expect(row).toEqual({ revoked_by: chair.resident });
    t.clock.advance(30);
    const writes = await governanceWrites(t, company);
    const again = await chair.client.callOk("governanceservice.revoke_signing_authority", {
      company_id: company,
      resident_id: other.resident,
      revoked_by: chair.resident,
    });
    expect(again).toEqual(r);
    expect(await governanceWrites(t, company)).toEqual(writes);
    expect((await auditRows(t, "revoke_signing_authority")).filter((a) => a.target_ref === granted.sid)).toEqual([
      { subject_id: chair.client.userId, target_ref: granted.sid, target_type: "signing_authority", allowed: true },
      { subject_id: chair.client.userId, target_ref: granted.sid, target_type: "signing_authority", allowed: true },
    ]);
  });

  test("a resident that never held it is NotFound; nothing written", async () => {
    const { company, chair, other } = await board();
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => revoke(chair.client, company, other.resident, chair.resident),
      -32003,
      gov("NotFound"),
    );
  });

  test("after a revoke it may be granted again: a new active row, the revoked one kept", async () => {
    const { company, chair, other } = await board();
    await grant(chair.client, company, other.resident, chair.resident);
    await revoke(chair.client, company, other.resident, chair.resident);
    const again = await grant(chair.client, company, other.resident, chair.resident);
    expect("result" in again && again.result.status).toBe("active");
    const rows = await sql(t, `select status from signing_authority where resident_id = ? order by sid`, [
      other.resident,
    ]);
    expect(rows.map((x) => x.status)).toEqual(["revoked", "active"]);
  });
});

describe("signing authority and the company key", () => {
  test("a holder reads companyservice.get_company_encrypted_key and loses it on revoke and on removal", async () => {
    const { owner, ownerResident, company, chair, other } = await board();
    const kp = newKeypair();
    await owner.callOk("companyservice.store_company_keypair", {
      company_id: company,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    const read = (c: Client) => c.call("companyservice.get_company_encrypted_key", { company_id: company });
    // A director without the authority may not read it.
    expect(errorOf(await read(other.client)).code).toBe(-32002);
    await grant(chair.client, company, other.resident, chair.resident);
    const ok = await read(other.client);
    expect("result" in ok && ok.result).toMatchObject({ encrypted_private_key: kp.encrypted });
    await revoke(chair.client, company, other.resident, chair.resident);
    expect(errorOf(await read(other.client)).code).toBe(-32002);
    // Granted again, then removed as director: the removal revokes it.
    await grant(chair.client, company, other.resident, chair.resident);
    expect("result" in (await read(other.client))).toBe(true);
    expect(
      "result" in
        (await owner.call("governanceservice.remove_director", {
          company_id: company,
          resident_id: other.resident,
          removed_by: ownerResident,
        })),
    ).toBe(true);
    expect(errorOf(await read(other.client)).code).toBe(-32003);
  });
});
