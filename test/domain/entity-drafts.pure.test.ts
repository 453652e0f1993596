import { describe, expect, test } from "vitest";
import {
  acceptRefusal,
  capTable,
  completes,
  deadlinePassed,
  declineRefusal,
  defaultDeadline,
  finalizeRefusal,
  moveRefusal,
  nextStep,
  roundStart,
} from "../../src/domain/entity-drafts.ts";
import { documentsOf, keepDocuments, signingHash } from "../../src/domain/formation-documents.ts";
import { entityTypeRefusal, formFor, templateDataRefusal } from "../../src/domain/formation-forms.ts";

const now = new Date("2026-11-23T10:00:00.000Z");
const row = (email: string, units = 0, role: "shareholder" | "founding_member" | "director" | null = null) => ({
  name: "A",
  email,
  resident_id: null,
  units,
  role,
});

describe("the draft state table", () => {
  test("each move starts only from the states seed 000 tables", () => {
    expect(moveRefusal("update", "draft")).toBeNull();
    expect(moveRefusal("update", "pending_signatures")?.refusal).toBe("InvalidState");
    expect(moveRefusal("reopen", "pending_signatures")).toBeNull();
    expect(moveRefusal("reopen", "all_signed")?.refusal).toBe("InvalidState");
    for (const s of ["draft", "pending_signatures"] as const) expect(moveRefusal("cancel", s)).toBeNull();
    for (const s of ["all_signed", "paid", "active", "cancelled", "expired"] as const)
      expect(moveRefusal("cancel", s)?.refusal).toBe("InvalidState");
    expect(moveRefusal("pay", "pending_signatures")?.refusal).toBe("InvalidState");
    expect(nextStep("all_signed")).toBe("pay");
    expect(nextStep("expired")).toBe("none");
  });

  test("the deadline is 30 days ahead and has passed from its own instant on", () => {
    const deadline = defaultDeadline(now);
    expect(deadline.toISOString()).toBe("2026-12-23T10:00:00.000Z");
    expect(deadlinePassed(deadline, new Date(deadline.getTime() - 1))).toBe(false);
    expect(deadlinePassed(deadline, deadline)).toBe(true);
  });

  test("finalizing a cancelled or expired draft is InvalidState, a passed deadline Expired", () => {
    expect(finalizeRefusal("cancelled", defaultDeadline(now), now)?.refusal).toBe("InvalidState");
    expect(finalizeRefusal("expired", defaultDeadline(now), now)?.refusal).toBe("InvalidState");
    expect(finalizeRefusal("draft", now, now)?.refusal).toBe("Expired");
    expect(finalizeRefusal("draft", defaultDeadline(now), now)).toBeNull();
  });

  test("accepting checks the version first, then expiry, then the states", () => {
    const inv = { status: "expired" as const, document_version: 1, expires_at: now };
    expect(acceptRefusal(inv, { status: "pending_signatures", document_version: 2 }, now)?.refusal).toBe(
      "VersionMismatch",
    );
    expect(
      acceptRefusal({ ...inv, status: "pending" }, { status: "pending_signatures", document_version: 1 }, now)?.refusal,
    ).toBe("Expired");
    const live = { status: "pending" as const, document_version: 1, expires_at: defaultDeadline(now) };
    expect(acceptRefusal(live, { status: "draft", document_version: 1 }, now)?.refusal).toBe("InvalidState");
    expect(acceptRefusal(live, { status: "pending_signatures", document_version: 1 }, now)).toBeNull();
  });

  test("a new round starts now, or 1 ms after the previous round's last invitation", () => {
    expect(roundStart([], now)).toEqual(now);
    expect(roundStart([new Date(now.getTime() - 5000)], now)).toEqual(now);
    expect(roundStart([now], now)).toEqual(new Date(now.getTime() + 1));
  });

  test("a decline needs a pending invitation; a blank reason is none", () => {
    expect(declineRefusal("pending", "  ")).toEqual({ reason: null });
    expect(declineRefusal("accepted", "x")).toMatchObject({ refusal: "InvalidState" });
    expect(declineRefusal("pending", "x".repeat(1001))).toMatchObject({ refusal: "InvalidInput" });
  });

  test("completion needs every signature and no decline", () => {
    const d = { status: "pending_signatures" as const, completed_signatures: 2, total_required_signatures: 2 };
    expect(completes(d, 0)).toBe(true);
    expect(completes(d, 1)).toBe(false);
    expect(completes({ ...d, completed_signatures: 1 }, 0)).toBe(false);
    expect(completes({ ...d, status: "draft" }, 0)).toBe(false);
  });
});

describe("cap tables and forms", () => {
  test("cap tables: emails lower-cased and distinct, roles filled, cooperative members hold no units", () => {
    expect(capTable("cooperative", [row(" Ann@Example.org ")])).toEqual([
      { name: "A", email: "ann@example.org", resident_id: null, units: 0, role: "founding_member" },
    ]);
    expect(capTable("cooperative", [row("a@example.org", 3)])).toMatchObject({ refusal: "InvalidInput" });
    expect(capTable("company", [row("a@example.org", 0)])).toMatchObject({ refusal: "InvalidInput" });
    expect(capTable("company", [row("a@example.org", 10), row("A@example.org", 5)])).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(capTable("company", [row("not-an-email", 10)])).toMatchObject({ refusal: "InvalidInput" });
  });

  test("entity and company types must agree; every company type has a form", () => {
    expect(entityTypeRefusal("cooperative", "coop_platinum_fzc")).toBeNull();
    expect(entityTypeRefusal("company", "coop_platinum_fzc")?.refusal).toBe("InvalidInput");
    for (const type of [
      "single_fzc",
      "startup_fzc",
      "growth_fzc",
      "global_fzc",
      "coop_standard_fzc",
      "coop_platinum_fzc",
    ] as const)
      expect(formFor(type).fields.length).toBeGreaterThan(3);
  });

  test("template data is checked field by field against the form", () => {
    const ok = {
      purpose: "p",
      registered_address: "a",
      registered_city: "c",
      registered_country: "AE",
      industry: "media",
      share_capital: 10,
      total_shares: 10,
      accept_terms: true,
    };
    expect(templateDataRefusal("single_fzc", JSON.stringify(ok))).toBeNull();
    expect(templateDataRefusal("single_fzc", JSON.stringify({ ...ok, share_capital: "10" }))?.details).toEqual({
      field: "template_data.share_capital",
    });
    expect(templateDataRefusal("single_fzc", JSON.stringify({ ...ok, registered_country: "UAE" }))?.refusal).toBe(
      "InvalidInput",
    );
    expect(templateDataRefusal("single_fzc", "[]")?.refusal).toBe("InvalidInput");
  });

  test("a text field of the form is one line; a textarea keeps lines but no control characters (issue 29 item 5)", () => {
    const ok = {
      purpose: "Trading\r\nand\tconsulting",
      registered_address: "1 Harbour Road",
      registered_city: "c",
      registered_country: "AE",
      industry: "media",
      share_capital: 10,
      total_shares: 10,
      accept_terms: true,
    };
    expect(templateDataRefusal("single_fzc", JSON.stringify(ok))).toBeNull();
    for (const registered_address of ["1 Harbour Road\n# OFFICIAL: banking licence", "a\tb", "a\u2028b"]) {
      expect(templateDataRefusal("single_fzc", JSON.stringify({ ...ok, registered_address }))).toMatchObject({
        refusal: "InvalidInput",
        details: { field: "template_data.registered_address" },
      });
    }
    expect(templateDataRefusal("single_fzc", JSON.stringify({ ...ok, purpose: "a\u0000b" }))?.details).toEqual({
      field: "template_data.purpose",
    });
  });
});

describe("formation documents", () => {
  test("earlier versions are kept only when invitations were sent for them; the signing hash covers every document", () => {
    const doc = (v: number) => ({ contract_id: "c", name: "n", content: `v${v}`, document_version: v });
    const kept = keepDocuments([doc(1), doc(2)], [doc(3)], new Set([1]));
    expect(kept.map((d) => d.document_version)).toEqual([1, 3]);
    const v3 = documentsOf(kept, 3);
    expect(v3).toHaveLength(1);
    expect(signingHash(v3)).not.toBe(signingHash(documentsOf(kept, 1)));
  });
});
