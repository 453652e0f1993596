import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  canonicalTransferTerms,
  commitRefusal,
  moveUnits,
  transferHash,
  transferInput,
  transferMoveRefusal,
} from "../../src/domain/share-transfers.ts";
import { totalMicroUnits } from "../../src/domain/units.ts";

const row = (resident_id: string | null, units: number, role: "shareholder" | "director" | null = "shareholder") => ({
  name: resident_id ?? "?",
  email: "x@example.org",
  resident_id,
  units,
  role,
});
const carol = { resident_id: "C", name: "Carol", email: "c@example.org" };

describe("canonical terms", () => {
  const terms = {
    transfer_id: "t1",
    company_id: "FZ-2026-Y000001",
    from_resident_id: "A",
    to_resident_id: "C",
    units: 2.5,
    reason: null,
    created_at: new Date("2026-11-23T10:00:00.000Z"),
  };
  test("are the documented JSON text, and the hash its SHA-256", () => {
    expect(canonicalTransferTerms(terms)).toBe(
      '{"type":"freezone.share_transfer.v1","transfer_id":"t1","company_id":"FZ-2026-Y000001","from_resident_id":"A","to_resident_id":"C","units":2.5,"reason":null,"created_at":"2026-11-23T10:00:00.000Z"}',
    );
    expect(transferHash(terms)).toMatch(/^[0-9a-f]{64}$/);
    expect(transferHash({ ...terms, units: 3 })).not.toBe(transferHash(terms));
  });
});

describe("moveUnits", () => {
  test("conserves the total for any holding and any transfer that fits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 9 }), (heldMicro, askMicro) => {
        const table = [row("A", heldMicro / 1e6), row("B", 7), row(null, 1)];
        const out = moveUnits(table, "A", carol, askMicro / 1e6);
        if (askMicro > heldMicro) return "refusal" in out;
        if ("refusal" in out) return false;
        return totalMicroUnits(out.table) === totalMicroUnits(table);
      }),
    );
  });

  test("a giver left with nothing leaves; an existing recipient row grows", () => {
    const out = moveUnits([row("A", 5), row("C", 1)], "A", carol, 5);
    expect(out).toEqual({ table: [row("C", 6)], giverLeft: 0, recipientIsNew: false });
  });

  test("only the giver's shareholder row counts", () => {
    expect(moveUnits([row("A", 5, "director")], "A", carol, 1)).toMatchObject({ refusal: "InsufficientShares" });
  });
});

describe("input and states", () => {
  test("refuses bad units, self transfers and long reasons; trims the reason", () => {
    expect(transferInput({ from: "A", to: "C", units: 1, reason: "  x " })).toEqual({ units: 1, reason: "x" });
    expect(transferInput({ from: "A", to: "C", units: 1, reason: "   " })).toEqual({ units: 1, reason: null });
    for (const units of [0, -1, Number.NaN, 1e-7]) {
      expect(transferInput({ from: "A", to: "C", units, reason: undefined })).toMatchObject({
        refusal: "InvalidInput",
      });
    }
    expect(transferInput({ from: "A", to: "A", units: 1, reason: undefined })).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(transferInput({ from: "A", to: "C", units: 1, reason: "x".repeat(1001) })).toMatchObject({
      refusal: "InvalidInput",
    });
  });

  test("commitments count against the holding", () => {
    expect(commitRefusal(100, 60, 40)).toBeNull();
    expect(commitRefusal(100, 60, 40.000001)).toMatchObject({ refusal: "InsufficientShares" });
  });

  test("state table: approve from pending, complete from approved, cancel from pending or approved", () => {
    expect(transferMoveRefusal("pending", "approve")).toBeNull();
    expect(transferMoveRefusal("approved", "complete")).toBeNull();
    expect(transferMoveRefusal("approved", "cancel")).toBeNull();
    expect(transferMoveRefusal("pending", "cancel")).toBeNull();
    for (const s of ["completed", "cancelled", "rejected"] as const) {
      for (const a of ["approve", "complete", "cancel"] as const) {
        expect(transferMoveRefusal(s, a)).toMatchObject({ refusal: "InvalidState" });
      }
    }
    expect(transferMoveRefusal("pending", "complete")).toMatchObject({ refusal: "InvalidState" });
  });
});
