import { describe, expect, test } from "vitest";
import { grantDecision, memberPower, upgradeRefusal } from "../../src/domain/platinum.ts";
import { invitedRole, inviteInput, issueUnits } from "../../src/domain/shareholder-invites.ts";

// Cooperative membership rules (issue 30, docs/decisions.md "Corporate holders and cooperative membership").

describe("upgradeRefusal", () => {
  test("a cooperative member without the platinum role may be proposed", () => {
    expect(upgradeRefusal({ cooperative: true, candidateRoles: ["founding_member"] })).toBeNull();
    expect(upgradeRefusal({ cooperative: true, candidateRoles: ["founder", "founding_member"] })).toBeNull();
  });
  test("not a cooperative, not a member, already platinum", () => {
    expect(upgradeRefusal({ cooperative: false, candidateRoles: ["founding_member"] })).toMatchObject({
      refusal: "InvalidState",
      details: { reason: "not_a_cooperative" },
    });
    for (const roles of [[], ["director"], ["shareholder"], ["platinum_member"]]) {
      expect(upgradeRefusal({ cooperative: true, candidateRoles: roles })).toMatchObject({
        details: { reason: "not_a_member" },
      });
    }
    expect(upgradeRefusal({ cooperative: true, candidateRoles: ["founding_member", "platinum_member"] })).toMatchObject(
      {
        refusal: "AlreadyExists",
      },
    );
  });
});

describe("grantDecision", () => {
  const member = ["founding_member"];
  test("a passed upgrade of a member is granted to its candidate", () => {
    expect(grantDecision({ candidateId: "FZ-2026-RA000001", status: "passed", candidateRoles: member })).toEqual({
      candidateId: "FZ-2026-RA000001",
    });
  });
  test("not an upgrade, not passed, the candidate no longer a member or already platinum", () => {
    expect(grantDecision({ candidateId: null, status: "passed", candidateRoles: member })).toMatchObject({
      details: { reason: "not_an_upgrade" },
    });
    for (const status of ["active", "rejected", "expired", "executed", "draft"]) {
      expect(grantDecision({ candidateId: "x", status, candidateRoles: member })).toMatchObject({
        refusal: "InvalidState",
        details: { status },
      });
    }
    expect(grantDecision({ candidateId: "x", status: "passed", candidateRoles: [] })).toMatchObject({
      details: { reason: "not_a_member" },
    });
    expect(
      grantDecision({ candidateId: "x", status: "passed", candidateRoles: [...member, "platinum_member"] }),
    ).toMatchObject({ refusal: "AlreadyExists" });
  });
});

test("memberPower counts one unit per open founding_member and platinum_member role", () => {
  expect(memberPower([])).toBe(0);
  expect(memberPower(["founder", "director", "shareholder"])).toBe(0);
  expect(memberPower(["founder", "founding_member"])).toBe(1);
  expect(memberPower(["founding_member", "platinum_member"])).toBe(2);
});

describe("invitations into a cooperative", () => {
  test("offer 0 units; any other amount is InvalidInput; a company's invitation still needs units above 0", () => {
    expect(inviteInput({ invitee_email: "a@b.org", proposed_units: 0 }, true)).toMatchObject({ units: 0 });
    for (const units of [1, 0.5, -1, Number.NaN]) {
      expect(inviteInput({ invitee_email: "a@b.org", proposed_units: units }, true)).toMatchObject({
        refusal: "InvalidInput",
        details: { field: "proposed_units" },
      });
    }
    expect(inviteInput({ invitee_email: "a@b.org", proposed_units: 0 })).toMatchObject({ refusal: "InvalidInput" });
  });
  test("open founding_member in a cooperative, shareholder in a company", () => {
    expect(invitedRole(true)).toBe("founding_member");
    expect(invitedRole(false)).toBe("shareholder");
  });
  test("a cooperative cap table gains a 0-unit founding_member row once", () => {
    const holder = { residentId: "FZ-2026-RA000002", name: "Dee N", email: "dee@example.org" };
    const table = [
      {
        name: "Ana F",
        email: "ana@example.org",
        resident_id: "FZ-2026-RA000001",
        units: 0,
        role: "founding_member" as const,
      },
    ];
    const once = issueUnits(table, holder, 0, "founding_member");
    expect(once).toEqual([
      ...table,
      { name: "Dee N", email: "dee@example.org", resident_id: holder.residentId, units: 0, role: "founding_member" },
    ]);
    if ("refusal" in once) throw new Error(once.message);
    expect(issueUnits(once, holder, 0, "founding_member")).toEqual(once);
  });
});
