import { describe, expect, test } from "vitest";
import { appointmentRefusal, directorRemovalRefusal, grantRefusal } from "../../../src/domain/directors.ts";
import {
  answerRefusal,
  INVITE_VALID_DAYS,
  inviteExpiry,
  inviteInput,
} from "../../../src/domain/shareholder-invites.ts";

// Pure rules of issue 17's directors, signing authority and shareholder invitations (no database).

const now = new Date("2026-11-27T12:00:00.000Z");

describe("director rules", () => {
  test("a removal must leave at least one director or founder", () => {
    expect(directorRemovalRefusal(0)).toMatchObject({ refusal: "InvalidState" });
    expect(directorRemovalRefusal(1)).toBeNull();
  });

  test("appointing a current director is AlreadyExists; other roles may be appointed", () => {
    expect(appointmentRefusal(["director"])).toMatchObject({ refusal: "AlreadyExists" });
    expect(appointmentRefusal(["shareholder", "founder"])).toBeNull();
  });

  test("signing authority only for a current director", () => {
    expect(grantRefusal(["founder", "shareholder"])).toMatchObject({ refusal: "InvalidState" });
    expect(grantRefusal(["director"])).toBeNull();
  });
});

describe("invitation rules", () => {
  test("expires 14 days after the invitation", () => {
    expect(INVITE_VALID_DAYS).toBe(14);
    expect(inviteExpiry(now).toISOString()).toBe("2026-12-11T12:00:00.000Z");
  });

  test("input: email normalized, units > 0 and finite, message trimmed and bounded", () => {
    expect(inviteInput({ invitee_email: " A@B.org ", proposed_units: 1.5, message: "  hi " })).toEqual({
      email: "a@b.org",
      units: 1.5,
      message: "hi",
    });
    expect(inviteInput({ invitee_email: "a@b.org", proposed_units: 3, message: "  " })).toMatchObject({
      message: null,
    });
    for (const units of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(inviteInput({ invitee_email: "a@b.org", proposed_units: units })).toMatchObject({
        refusal: "InvalidInput",
        details: { field: "proposed_units" },
      });
    }
    expect(inviteInput({ invitee_email: "nope", proposed_units: 1 })).toMatchObject({ refusal: "InvalidInput" });
    expect(inviteInput({ invitee_email: "a@b.org", proposed_units: 1, message: "x".repeat(2001) })).toMatchObject({
      refusal: "InvalidInput",
      details: { field: "message" },
    });
  });

  const pending = { status: "pending" as const, expires_at: new Date(now.getTime() + 1000), invitee_email: "a@b.org" };
  const me = { email: "A@b.org", emailVerified: true };

  test("the verified invitee may answer a pending, unexpired invitation", () => {
    expect(answerRefusal(pending, me, now)).toBeNull();
  });

  test("another or an unverified email is Forbidden, checked before the state", () => {
    expect(answerRefusal(pending, { ...me, email: "c@d.org" }, now)).toMatchObject({ refusal: "Forbidden" });
    expect(answerRefusal(pending, { ...me, emailVerified: false }, now)).toMatchObject({ refusal: "Forbidden" });
    expect(answerRefusal({ ...pending, status: "accepted" }, { ...me, email: "c@d.org" }, now)).toMatchObject({
      refusal: "Forbidden",
    });
  });

  test("answered is AlreadyUsed; at or past expires_at, or stored expired, Expired", () => {
    expect(answerRefusal({ ...pending, status: "accepted" }, me, now)).toMatchObject({ refusal: "AlreadyUsed" });
    expect(answerRefusal({ ...pending, status: "rejected" }, me, now)).toMatchObject({ refusal: "AlreadyUsed" });
    expect(answerRefusal({ ...pending, expires_at: now }, me, now)).toMatchObject({ refusal: "Expired" });
    expect(answerRefusal({ ...pending, status: "expired" }, me, now)).toMatchObject({ refusal: "Expired" });
  });
});
