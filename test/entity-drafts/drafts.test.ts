import { createHash } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import type { TestApp } from "../support/app.ts";
import { member, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";
import { COOP_DATA, coopDraft, coopParams, draftTables, type Person, people, rawCall } from "./support.ts";

let t: TestApp;
let founder: Person;
let others: Person[];
beforeEach(async () => {
  t = await startFinanceApp();
  founder = await member(t);
  others = await people(t, 2);
});

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("get_form_schema", () => {
  test("answers the cooperative form anonymously, with FormFieldType kinds", async () => {
    const form = await t.callOk("entitydraftservice.get_form_schema", {
      entity_type: "cooperative",
      company_type: "coop_standard_fzc",
    });
    expect(form).toMatchObject({ entity_type: "cooperative", company_type: "coop_standard_fzc", version: 1 });
    expect(new Set(form.fields.map((f) => f.field_type))).toEqual(
      new Set(["text", "textarea", "dropdown", "number", "checkbox", "multi_select"]),
    );
  });

  test("a company form for a company type and a mismatch of entity and company type is InvalidInput", async () => {
    const form = await t.callOk("entitydraftservice.get_form_schema", {
      entity_type: "company",
      company_type: "single_fzc",
    });
    expect(form.fields.map((f) => f.key)).toContain("share_capital");
    for (const [entity_type, company_type] of [
      ["company", "coop_standard_fzc"],
      ["cooperative", "single_fzc"],
      ["partnership", "single_fzc"],
    ] as const) {
      const r = await t.call("entitydraftservice.get_form_schema", { entity_type, company_type });
      expect(r).toMatchObject({ error: { code: -32006, data: { type: "DraftError", variant: "InvalidInput" } } });
    }
  });
});

describe("create_draft", () => {
  test("starts in draft at version 1 with the caller's resident as creator and a 30-day deadline", async () => {
    const d = await coopDraft(founder, others);
    expect(d).toMatchObject({
      status: "draft",
      document_version: 1,
      creator_dr_id: founder.resident,
      total_required_signatures: 0,
      completed_signatures: 0,
      form_schema_id: "formation-coop_standard_fzc-v1",
      company_id: null,
      finalized_at: null,
    });
    expect(d.signature_deadline).toBe(new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString());
    expect(d.shareholders.map((s) => s.role)).toEqual(["founding_member", "founding_member", "founding_member"]);
    expect(JSON.stringify(d)).not.toContain(founder.client.userId);
  });

  test("a caller without a resident is Forbidden and nothing is written", async () => {
    const stranger = await t.register("no-resident@example.org");
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        stranger.call("entitydraftservice.create_draft", {
          entity_type: "cooperative",
          entity_name: "X",
          company_type: "coop_standard_fzc",
          template_data: JSON.stringify(COOP_DATA),
          shareholders: [{ name: "A", email: "a@example.org", resident_id: null, units: 0, role: null }],
        }),
      -32002,
      { type: "DraftError", variant: "Forbidden" },
    );
  });

  test("a user_id naming another user is refused -32002", async () => {
    const r = await founder.client.call("entitydraftservice.create_draft", {
      user_id: others[0]!.client.userId,
      entity_type: "cooperative",
      entity_name: "X",
      company_type: "coop_standard_fzc",
      template_data: JSON.stringify(COOP_DATA),
      shareholders: [],
    });
    expect(r).toMatchObject({ error: { code: -32002 } });
  });

  test.each([
    ["template data that is not JSON", { template_data: "{" }],
    ["a required field missing", { template_data: JSON.stringify({ ...COOP_DATA, purpose: undefined }) }],
    ["an unknown field", { template_data: JSON.stringify({ ...COOP_DATA, colour: "red" }) }],
    ["a dropdown value outside the options", { template_data: JSON.stringify({ ...COOP_DATA, industry: "mining" }) }],
    ["a number below its minimum", { template_data: JSON.stringify({ ...COOP_DATA, membership_fee: -1 }) }],
    ["terms not accepted", { template_data: JSON.stringify({ ...COOP_DATA, accept_terms: false }) }],
    ["an empty cap table", { shareholders: [] }],
    [
      "units for a cooperative member",
      { shareholders: [{ name: "A", email: "a@example.org", resident_id: null, units: 5, role: null }] },
    ],
    [
      "a duplicate email",
      {
        shareholders: [
          { name: "A", email: "a@example.org", resident_id: null, units: 0, role: null },
          { name: "B", email: "A@example.org", resident_id: null, units: 0, role: null },
        ],
      },
    ],
    ["a blank entity name", { entity_name: "  " }],
    ["a company type of another entity type", { company_type: "single_fzc" }],
  ])("refuses %s as InvalidInput and writes nothing", async (_name, change) => {
    await refusedNoWrite(
      () => draftTables(t),
      () => rawCall(founder, "entitydraftservice.create_draft", { ...coopParams(founder, others), ...change }),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
  });
});

describe("preview_documents", () => {
  test("renders the current version from the form data with SHA-256 hashes", async () => {
    const d = await coopDraft(founder, others);
    const p = await founder.client.callOk("entitydraftservice.preview_documents", { draft_id: d.sid });
    expect(p.document_version).toBe(1);
    expect(p.documents).toHaveLength(1);
    const doc = p.documents[0]!;
    expect(doc.contract_id).toBe("cooperative_charter");
    expect(doc.content).toContain("Makers Cooperative");
    expect(doc.content).toContain(COOP_DATA.purpose);
    expect(doc.content).toContain(others[0]!.client.email);
    expect(doc.content_hash).toBe(sha(doc.content));
    expect(p.signing_hash).toBe(sha(doc.content_hash));
  });

  test("is NotFound to a user who is neither the creator nor an invitee", async () => {
    const d = await coopDraft(founder, others);
    const stranger = await member(t);
    const r = await stranger.client.call("entitydraftservice.preview_documents", { draft_id: d.sid });
    expect(r).toMatchObject({ error: { code: -32003, data: { variant: "NotFound" } } });
  });
});

describe("update_draft", () => {
  test("replaces the fields given, bumps document_version and re-renders", async () => {
    const d = await coopDraft(founder, others);
    const u = await founder.client.callOk("entitydraftservice.update_draft", {
      draft_id: d.sid,
      template_data: JSON.stringify({ ...COOP_DATA, purpose: "Shared kitchen" }),
      entity_name: "Kitchen Cooperative",
    });
    expect(u).toMatchObject({ document_version: 2, entity_name: "Kitchen Cooperative", status: "draft" });
    const p = await founder.client.callOk("entitydraftservice.preview_documents", { draft_id: d.sid });
    expect(p.document_version).toBe(2);
    expect(p.documents[0]!.content).toContain("Shared kitchen");
  });

  test("sets a future signature deadline; a past one is InvalidInput", async () => {
    const d = await coopDraft(founder, others);
    const later = new Date(t.clock.now().getTime() + 5 * 86_400_000).toISOString();
    const u = await founder.client.callOk("entitydraftservice.update_draft", {
      draft_id: d.sid,
      signature_deadline: later,
    });
    expect(u.signature_deadline).toBe(later);
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        founder.client.call("entitydraftservice.update_draft", {
          draft_id: d.sid,
          signature_deadline: t.clock.now().toISOString(),
        }),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
  });

  test("an empty edit is InvalidInput; an invitee is NotOwner; a stranger NotFound; nothing changes", async () => {
    const d = await coopDraft(founder, others);
    await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
    await founder.client.callOk("entitydraftservice.reopen_draft", { draft_id: d.sid });
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.update_draft", { draft_id: d.sid }),
      -32006,
      { type: "DraftError", variant: "InvalidInput" },
    );
    await refusedNoWrite(
      () => draftTables(t),
      () => others[0]!.client.call("entitydraftservice.update_draft", { draft_id: d.sid, entity_name: "Mine" }),
      -32002,
      { type: "DraftError", variant: "NotOwner" },
    );
    const stranger = await member(t);
    await refusedNoWrite(
      () => draftTables(t),
      () => stranger.client.call("entitydraftservice.update_draft", { draft_id: d.sid, entity_name: "Mine" }),
      -32003,
      { type: "DraftError", variant: "NotFound" },
    );
  });

  test("is refused once the draft is finalized (InvalidState)", async () => {
    const d = await coopDraft(founder, others);
    await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.update_draft", { draft_id: d.sid, entity_name: "Late" }),
      -32005,
      { type: "DraftError", variant: "InvalidState" },
    );
  });
});

describe("list_drafts and get_draft_status", () => {
  test("list_drafts answers the caller's drafts newest first and nobody else's", async () => {
    const first = await coopDraft(founder, others);
    t.clock.advance(60);
    const second = await coopDraft(founder, []);
    await coopDraft(others[0]!, []);
    const list = await founder.client.callOk("entitydraftservice.list_drafts", {});
    expect(list.items.map((d) => d.sid)).toEqual([second.sid, first.sid]);
  });

  test("get_draft_status lists each invited signer once finalized", async () => {
    const d = await coopDraft(founder, others);
    const before = await founder.client.callOk("entitydraftservice.get_draft_status", { draft_id: d.sid });
    expect(before.signers).toEqual([]);
    await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
    const s = await others[0]!.client.callOk("entitydraftservice.get_draft_status", { draft_id: d.sid });
    expect(s).toMatchObject({ status: "pending_signatures", total_required_signatures: 2, completed_signatures: 0 });
    expect(s.signers.map((x) => x.invitee_email).sort()).toEqual(others.map((p) => p.client.email).sort());
    expect(s.signers.every((x) => x.status === "pending" && !x.signed && x.invitee_name === "Ada Lovelace")).toBe(true);
    expect((await sql(t, "select count(*)::int as n from entity_invitation"))[0].n).toBe(2);
  });
});
