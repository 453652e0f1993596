import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { instantOf, isCorporateSubject, MAX_AS_OF_EPOCH, roleWriter } from "../../src/domain/company-roles.ts";
import { changeRole, closeRole, findRole, openRole } from "../../src/repos/company-roles.ts";
import type { TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { count } from "../support/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const em = () => t.app.runtime.orm.em.fork();
const START = new Date("2026-03-01T00:00:00.000Z");
const LATER = new Date("2026-06-01T00:00:00.000Z");
const LATEST = new Date("2026-09-01T00:00:00.000Z");
let serial = 0;

function grant() {
  serial += 1;
  return {
    companyId: `FZ-2026-Y9${String(serial).padStart(5, "0")}`,
    subjectId: "FZ-2026-RA100001",
    role: "shareholder" as const,
    classificationScope: ["shareholder"],
    validFrom: START,
    createdBy: "FZ-2026-RA100002",
    holderExternalId: "FZX-ABCDEFGHJK",
  };
}

const rows = (companyId: string) => count(t, "company_role", "company_id = ?", [companyId]);

describe("domain", () => {
  test("as_of_epoch: 0 is now, seconds otherwise, negative, fractional and too large refused", () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    expect(instantOf(0, now)).toBe(now);
    expect(instantOf(1, now)).toEqual(new Date(1000));
    expect(instantOf(MAX_AS_OF_EPOCH, now)).toEqual(new Date("9999-12-31T23:59:59.000Z"));
    for (const bad of [-1, 1.5, MAX_AS_OF_EPOCH + 1])
      expect(instantOf(bad, now)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("company and cooperative ids are corporate subjects, resident ids are not", () => {
    expect(isCorporateSubject("FZ-2026-Y000123")).toBe(true);
    expect(isCorporateSubject("FZ-2026-P000123")).toBe(true);
    expect(isCorporateSubject("FZ-2026-RA000123")).toBe(false);
    expect(isCorporateSubject("FZ-2026-Y00012")).toBe(false);
  });
});

describe("openRole / closeRole", () => {
  test("opens an open-ended row; closing sets valid_to once, a second close changes nothing", async () => {
    const g = grant();
    const opened = await openRole(em(), g);
    expect(await findRole(em(), opened.sid)).toMatchObject({
      company_id: g.companyId,
      subject_id: g.subjectId,
      role: "shareholder",
      valid_from: START,
      valid_to: null,
      classification_scope: ["shareholder"],
      holder_external_id: "FZX-ABCDEFGHJK",
    });
    const closed = await closeRole(em(), opened.sid, LATER);
    expect(closed).toMatchObject({ valid_to: LATER, updated_at: LATER });
    const again = await closeRole(em(), opened.sid, LATEST);
    expect(again).toEqual(closed);
    expect(await findRole(em(), opened.sid)).toEqual(closed);
    expect(await rows(g.companyId)).toBe(1);
  });

  test("closing at the start is allowed (empty from then on); before the start throws and writes nothing", async () => {
    const a = await openRole(em(), grant());
    await expect(closeRole(em(), a.sid, new Date(START.getTime() - 1))).rejects.toThrow(RangeError);
    expect((await findRole(em(), a.sid))?.valid_to).toBeNull();
    expect(await closeRole(em(), a.sid, START)).toMatchObject({ valid_to: START });
  });

  test("created_by is one formatted id: a user id or another name throws and writes nothing (issue 30)", async () => {
    for (const createdBy of ["admin", "0190f3a0-0000-7000-8000-000000000000", "FZX-ABCDEFGHJK", ""]) {
      const g = { ...grant(), createdBy };
      await expect(openRole(em(), g)).rejects.toThrow(RangeError);
      expect(await rows(g.companyId)).toBe(0);
    }
    for (const createdBy of ["FZ-2026-RA000001", "FZ-2026-Y000001", "FZ-2026-P000001"]) {
      expect((await openRole(em(), { ...grant(), createdBy })).created_by).toBe(createdBy);
    }
    expect(roleWriter(null, "FZ-2026-Y000007")).toBe("FZ-2026-Y000007");
    expect(roleWriter("FZ-2026-RA000009", "FZ-2026-Y000007")).toBe("FZ-2026-RA000009");
  });

  test("an unknown role closes to null", async () => {
    expect(await closeRole(em(), "00000000-0000-7000-8000-000000000000", LATER)).toBeNull();
  });
});

describe("changeRole", () => {
  test("closes the old row (only valid_to changes) and writes a new row from the same instant", async () => {
    const g = grant();
    const before = await openRole(em(), g);
    const stored = await findRole(em(), before.sid);
    const change = await changeRole(em(), before.sid, LATER, { role: "director", createdBy: "FZ-2026-Y900000" });
    expect(change).not.toBeNull();
    const after = await findRole(em(), before.sid);
    expect(after).toEqual({ ...stored, valid_to: LATER, updated_at: LATER });
    expect(change?.closed).toEqual(after);
    expect(await findRole(em(), change?.opened.sid ?? "")).toMatchObject({
      company_id: g.companyId,
      subject_id: g.subjectId,
      role: "director",
      classification_scope: ["shareholder"],
      valid_from: LATER,
      valid_to: null,
      created_by: "FZ-2026-Y900000",
      holder_external_id: "FZX-ABCDEFGHJK",
    });
    expect(await rows(g.companyId)).toBe(2);
  });

  test("the scope alone may change; the role stays", async () => {
    const before = await openRole(em(), grant());
    const change = await changeRole(em(), before.sid, LATER, {
      classificationScope: ["founder"],
      createdBy: "FZ-2026-RA100003",
    });
    expect(change?.opened).toMatchObject({ role: "shareholder", classification_scope: ["founder"] });
  });

  test("a closed or unknown role does not change: null, nothing written", async () => {
    const g = grant();
    const before = await openRole(em(), g);
    await changeRole(em(), before.sid, LATER, { role: "director", createdBy: "FZ-2026-RA100003" });
    const closed = await findRole(em(), before.sid);
    expect(await changeRole(em(), before.sid, LATEST, { role: "founder", createdBy: "FZ-2026-RA100003" })).toBeNull();
    expect(await findRole(em(), before.sid)).toEqual(closed);
    expect(await rows(g.companyId)).toBe(2);
    expect(
      await changeRole(em(), "00000000-0000-7000-8000-000000000000", LATER, { createdBy: "FZ-2026-RA100003" }),
    ).toBeNull();
  });

  test("a change before the role's start throws and writes nothing", async () => {
    const g = grant();
    const before = await openRole(em(), g);
    const early = new Date(START.getTime() - 1000);
    await expect(
      changeRole(em(), before.sid, early, { role: "director", createdBy: "FZ-2026-RA100003" }),
    ).rejects.toThrow(RangeError);
    expect((await findRole(em(), before.sid))?.valid_to).toBeNull();
    expect(await rows(g.companyId)).toBe(1);
  });
});

test("concurrent changes of one role: one wins, the other writes nothing", async () => {
  const g = grant();
  const before = await openRole(em(), g);
  const change = (role: "director" | "founder") =>
    em().transactional((tx) => changeRole(tx, before.sid, LATER, { role, createdBy: "FZ-2026-RA100003" }));
  const results = await Promise.all([change("director"), change("founder"), change("director")]);
  expect(results.filter((r) => r !== null)).toHaveLength(1);
  expect(await rows(g.companyId)).toBe(2);
  expect((await findRole(em(), before.sid))?.valid_to).toEqual(LATER);
});
