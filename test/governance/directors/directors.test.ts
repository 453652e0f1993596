import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../../support/app.ts";
import { insertResident, person, startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import { auditRows, governanceWrites, ownedCompany } from "./support.ts";

// governanceservice.appoint_director / remove_director (issue 17): directors are rows of the append-only
// CompanyRole table; removal closes the row, revokes the director's signing authority, and never leaves a company
// with neither a director nor a founder.

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const gov = (variant: string) => ({ type: "GovernanceError", variant });

function appoint(c: Client, company: string, resident: string, by: string) {
  return c.call("governanceservice.appoint_director", { company_id: company, resident_id: resident, appointed_by: by });
}

function remove(c: Client, company: string, resident: string, by: string) {
  return c.call("governanceservice.remove_director", { company_id: company, resident_id: resident, removed_by: by });
}

const directorRows = (company: string, resident: string) =>
  sql(t, `select * from company_role where company_id = ? and subject_id = ? and role = 'director' order by sid`, [
    company,
    resident,
  ]);

describe("governanceservice.appoint_director", () => {
  test("a founder appoints: one open director row from now, audited appoint_director on the row", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    const candidate = await insertResident(t, null);
    const r = await founder.client.callOk("governanceservice.appoint_director", {
      company_id: company,
      resident_id: candidate,
      appointed_by: founder.resident,
    });
    expect(r).toMatchObject({ company_id: company, role: "director", valid_to: null, created_by: founder.resident });
    expect(r.valid_from).toBe(t.clock.now().toISOString());
    const rows = await directorRows(company, candidate);
    expect(rows.map((x) => [x.sid, x.valid_to])).toEqual([[r.sid, null]]);
    const audit = (await auditRows(t, "appoint_director")).filter((a) => a.target_ref === r.sid);
    expect(audit).toEqual([
      { subject_id: founder.client.userId, target_ref: r.sid, target_type: "company_role", allowed: true },
    ]);
  });

  test("a current director is AlreadyExists; nothing written, the denial audited", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    const director = await person(t, company, "director");
    const before = (await auditRows(t, "appoint_director")).length;
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => appoint(founder.client, company, director.resident, founder.resident),
      -32005,
      gov("AlreadyExists"),
    );
    const audit = await auditRows(t, "appoint_director");
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)).toMatchObject({ subject_id: founder.client.userId, allowed: false });
  });

  test("an unknown resident is NotFound; nothing written", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => appoint(founder.client, company, "FZ-2026-RA999999", founder.resident),
      -32003,
      gov("NotFound"),
    );
  });

  test("a director (not a founder) is Forbidden; a stranger NotFound; nothing written", async () => {
    const { company } = await ownedCompany(t);
    const director = await person(t, company, "director");
    const stranger = await person(t, null, null);
    const candidate = await insertResident(t, null);
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => appoint(director.client, company, candidate, director.resident),
      -32002,
      null,
    );
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => appoint(stranger.client, company, candidate, stranger.resident),
      -32003,
      null,
    );
  });

  test("a suspended or voided company is InvalidState; nothing written", async () => {
    for (const status of ["suspended", "voided", "inactive"]) {
      const { company } = await ownedCompany(t, { status });
      const founder = await person(t, company, "founder");
      const candidate = await insertResident(t, null);
      await refusedNoWrite(
        () => governanceWrites(t, company),
        () => appoint(founder.client, company, candidate, founder.resident),
        -32005,
        gov("InvalidState"),
      );
    }
  });

  test("the owner (counted as founder) appoints through a resident it owns", async () => {
    const { owner, ownerResident, company } = await ownedCompany(t);
    const candidate = await insertResident(t, null);
    const r = await owner.callOk("governanceservice.appoint_director", {
      company_id: company,
      resident_id: candidate,
      appointed_by: ownerResident,
    });
    expect(r.role).toBe("director");
  });
});

describe("governanceservice.remove_director", () => {
  test("closes the row at now (no new row), revokes the director's signing authority, audited remove_director", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    const director = await person(t, company, "director");
    await director.client.callOk("governanceservice.grant_signing_authority", {
      company_id: company,
      resident_id: director.resident,
      granted_by: director.resident,
    });
    t.clock.advance(60);
    const r = await founder.client.callOk("governanceservice.remove_director", {
      company_id: company,
      resident_id: director.resident,
      removed_by: founder.resident,
    });
    const now = t.clock.now().toISOString();
    expect(r).toMatchObject({ role: "director", valid_to: now });
    const rows = await directorRows(company, director.resident);
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0].valid_to).toISOString()).toBe(now);
    const [auth] = await sql(t, `select * from signing_authority where company_id = ? and resident_id = ?`, [
      company,
      director.resident,
    ]);
    expect(auth).toMatchObject({ status: "revoked", revoked_by: founder.resident });
    expect(new Date(auth.valid_to).toISOString()).toBe(now);
    const audit = (await auditRows(t, "remove_director")).filter((a) => a.target_ref === r.sid);
    expect(audit).toEqual([
      { subject_id: founder.client.userId, target_ref: r.sid, target_type: "company_role", allowed: true },
    ]);
    // No longer a director: a second removal is NotFound.
    expect(errorOf(await remove(founder.client, company, director.resident, founder.resident)).code).toBe(-32003);
  });

  test("a resident who is not a current director (a shareholder, a past director) is NotFound; nothing written", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    const shareholder = await person(t, company, "shareholder");
    const past = await person(t, company, "director", { valid_to: new Date("2026-02-01T00:00:00.000Z") });
    for (const resident of [shareholder.resident, past.resident]) {
      await refusedNoWrite(
        () => governanceWrites(t, company),
        () => remove(founder.client, company, resident, founder.resident),
        -32003,
        gov("NotFound"),
      );
    }
  });

  test("the last director of a company without a founder is kept: InvalidState, nothing written", async () => {
    const { owner, ownerResident, company } = await ownedCompany(t);
    const director = await person(t, company, "director");
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => remove(owner, company, director.resident, ownerResident),
      -32005,
      gov("InvalidState"),
    );
  });

  test("with a founder left, the last director may go", async () => {
    const { company } = await ownedCompany(t);
    const founder = await person(t, company, "founder");
    const director = await person(t, company, "director");
    const r = await founder.client.callOk("governanceservice.remove_director", {
      company_id: company,
      resident_id: director.resident,
      removed_by: founder.resident,
    });
    expect(r.valid_to).not.toBeNull();
  });

  test("concurrent removals of both directors of a company without a founder: exactly one succeeds", async () => {
    const { owner, ownerResident, company } = await ownedCompany(t);
    const a = await person(t, company, "director");
    const b = await person(t, company, "director");
    const replies = await Promise.all([
      remove(owner, company, a.resident, ownerResident),
      remove(owner, company, b.resident, ownerResident),
    ]);
    const ok = replies.filter((r) => "result" in r);
    const refused = replies.filter((r) => "error" in r).map((r) => errorOf(r));
    expect(ok).toHaveLength(1);
    expect(refused.map((e) => [e.code, e.data?.variant])).toEqual([[-32005, "InvalidState"]]);
    const open = await sql(
      t,
      `select subject_id from company_role where company_id = ? and role = 'director' and valid_to is null`,
      [company],
    );
    expect(open).toHaveLength(1);
  });

  test("a director (not a founder) may not remove: Forbidden, nothing written", async () => {
    const { company } = await ownedCompany(t);
    await person(t, company, "founder");
    const director = await person(t, company, "director");
    const other = await person(t, company, "director");
    await refusedNoWrite(
      () => governanceWrites(t, company),
      () => remove(director.client, company, other.resident, director.resident),
      -32002,
      null,
    );
  });
});
