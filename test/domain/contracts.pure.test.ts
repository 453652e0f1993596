import { describe, expect, test } from "vitest";
import {
  contractFitsSigner,
  contractUpdate,
  effectiveContractStatus,
  newContractFields,
  signInput,
} from "../../src/domain/contracts.ts";

const NOW = new Date("2026-11-23T10:00:00.000Z");
const PAST = new Date("2026-11-01T00:00:00.000Z");
const FUTURE = new Date("2027-01-01T00:00:00.000Z");
const base = { start_date: new Date("2026-10-01T00:00:00.000Z"), end_date: null as Date | null };

describe("effectiveContractStatus", () => {
  test("pending and active contracts read expired from the end instant on", () => {
    expect(effectiveContractStatus("active", NOW, NOW)).toBe("expired");
    expect(effectiveContractStatus("pending_signature", PAST, NOW)).toBe("expired");
    expect(effectiveContractStatus("active", FUTURE, NOW)).toBe("active");
    expect(effectiveContractStatus("active", null, NOW)).toBe("active");
  });

  test("drafts and archived contracts keep their status", () => {
    expect(effectiveContractStatus("draft", PAST, NOW)).toBe("draft");
    expect(effectiveContractStatus("archived", PAST, NOW)).toBe("archived");
  });
});

describe("newContractFields", () => {
  const data = { name: " A ", contract_type: " service ", counterparty: " B ", start_date: "2026-11-01T00:00:00Z" };

  test("trims texts and reads dates", () => {
    expect(newContractFields({ ...data, end_date: "2026-11-01T00:00:00Z" })).toEqual({
      name: "A",
      contract_type: "service",
      counterparty: "B",
      start_date: PAST,
      end_date: PAST,
      total_value: null,
    });
  });

  test("refuses blank texts and an end before the start", () => {
    expect(newContractFields({ ...data, contract_type: "  " })).toMatchObject({
      refusal: "InvalidInput",
      details: { field: "contract_type" },
    });
    expect(newContractFields({ ...data, end_date: "2026-10-31T00:00:00Z" })).toMatchObject({ refusal: "InvalidInput" });
  });
});

describe("contractUpdate", () => {
  test("moves forward, skipping pending_signature if asked", () => {
    expect(contractUpdate({ ...base, status: "draft" }, { status: "pending_signature" }, NOW)).toEqual({
      status: "pending_signature",
    });
    expect(contractUpdate({ ...base, status: "draft" }, { status: "active" }, NOW)).toEqual({ status: "active" });
    expect(contractUpdate({ ...base, status: "pending_signature" }, { status: "active" }, NOW)).toEqual({
      status: "active",
    });
  });

  test("the current status again is no move", () => {
    expect(contractUpdate({ ...base, status: "active" }, { status: "active", name: "N" }, NOW)).toEqual({ name: "N" });
  });

  test("refuses backward moves, archived and expired contracts", () => {
    expect(contractUpdate({ ...base, status: "active" }, { status: "pending_signature" }, NOW)).toMatchObject({
      refusal: "InvalidState",
    });
    expect(contractUpdate({ ...base, status: "archived" }, { name: "x" }, NOW)).toMatchObject({
      refusal: "InvalidState",
      details: { status: "archived" },
    });
    expect(contractUpdate({ ...base, end_date: PAST, status: "active" }, { name: "x" }, NOW)).toMatchObject({
      refusal: "InvalidState",
      details: { status: "expired" },
    });
  });

  test("checks the merged dates and refuses activating an ended contract", () => {
    expect(contractUpdate({ ...base, status: "draft" }, { end_date: "2026-09-01T00:00:00Z" }, NOW)).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(contractUpdate({ ...base, end_date: PAST, status: "draft" }, { status: "active" }, NOW)).toMatchObject({
      refusal: "InvalidInput",
      details: { field: "end_date" },
    });
    expect(
      contractUpdate({ ...base, end_date: PAST, status: "draft" }, { status: "active", end_date: null }, NOW),
    ).toEqual({ status: "active", end_date: null });
  });

  test("null clears end_date and total_value", () => {
    expect(contractUpdate({ ...base, status: "draft" }, { total_value: null, end_date: null }, NOW)).toEqual({
      total_value: null,
      end_date: null,
    });
  });
});

describe("signInput", () => {
  test("accepts a user with no entity id and trims the name", () => {
    expect(signInput({ entity_type: "user", entity_name: " Ada ", entity_id: "" })).toEqual({
      entityType: "user",
      entityName: "Ada",
      entityId: "",
    });
  });

  test.each([
    [{ entity_type: "partner", entity_name: "A", entity_id: "" }, "entity_type"],
    [{ entity_type: "user", entity_name: "A", entity_id: "x" }, "entity_id"],
    [{ entity_type: "company", entity_name: "A", entity_id: "" }, "entity_id"],
    [{ entity_type: "user", entity_name: " ", entity_id: "" }, "entity_name"],
  ])("refuses %j", (params, field) => {
    expect(signInput(params)).toMatchObject({ refusal: "InvalidInput", details: { field } });
  });
});

describe("contractFitsSigner", () => {
  const residency = { title: "Residency", required_for: ["resident" as const], company_types: [] };
  const articles = { title: "Articles", required_for: ["company" as const], company_types: ["single_fzc" as const] };
  const lifecycle = { title: "Transfer", required_for: [], company_types: [] };

  test("a user signs anything offered", () => {
    expect(contractFitsSigner(articles, "user", null)).toBeNull();
  });

  test("a resident or company signs contracts of its kind and lifecycle templates", () => {
    expect(contractFitsSigner(residency, "digital_resident", null)).toBeNull();
    expect(contractFitsSigner(lifecycle, "company", "growth_fzc")).toBeNull();
    expect(contractFitsSigner(residency, "company", "single_fzc")).toMatchObject({ refusal: "InvalidInput" });
    expect(contractFitsSigner(articles, "digital_resident", null)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("a company signs only what applies to its type", () => {
    expect(contractFitsSigner(articles, "company", "single_fzc")).toBeNull();
    expect(contractFitsSigner(articles, "company", "coop_standard_fzc")).toMatchObject({ refusal: "InvalidInput" });
  });
});
