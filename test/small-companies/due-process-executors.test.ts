import { describe, expect, test } from "vitest";
import type { CoopDueProcessExecutors } from "../../generated/types.ts";
import {
  COMPANY_FORM,
  COOPERATIVE_FORM,
  ensureFunds,
  formCompany,
  journeyCast,
  type Resident,
} from "../journeys/support.ts";

/*
 * Issue 30: a cooperative's due_process_executors (seed 000 ZoneCompany) were settable only by companyservice.create.
 * Now companyservice.update replaces or clears them, and a cooperative formed through a draft carries them from
 * create_draft / update_draft to the registered cooperative. Companies that are not cooperatives are refused
 * (InvalidInput, nothing written). Public API only.
 */

const cast = journeyCast({
  erin: { first_name: "Erin", last_name: "Cooper", spare: 300 },
  frank: { first_name: "Frank", last_name: "Trader", spare: 300 },
});

const PANEL: CoopDueProcessExecutors = {
  notice: null,
  response: null,
  review: "review_panel",
  decision: "ethics_committee",
  appeal: "internal_appeals_committee",
  appeal_decision: "arbitration",
};
const ASSEMBLY: CoopDueProcessExecutors = { ...PANEL, decision: "general_assembly", appeal_decision: null };

function founderRow(r: Resident, coop: boolean) {
  return {
    name: r.name,
    email: r.email,
    resident_id: null,
    units: coop ? 0 : 1,
    role: coop ? ("founding_member" as const) : ("shareholder" as const),
  };
}

function coopDraft(erin: Resident, executors?: CoopDueProcessExecutors | null) {
  return erin.client.call("entitydraftservice.create_draft", {
    entity_type: "cooperative",
    entity_name: `Erin Growers ${Math.random().toString(36).slice(2, 8)} Cooperative`,
    company_type: "coop_standard_fzc",
    template_data: JSON.stringify(COOPERATIVE_FORM),
    shareholders: [founderRow(erin, true)],
    ...(executors !== undefined ? { due_process_executors: executors } : {}),
  });
}

describe("due_process_executors through a draft", () => {
  test("create_draft stores them, update_draft replaces them (a new version), the cooperative is registered with them", async () => {
    const { erin, zone } = cast;
    const created = await coopDraft(erin, PANEL);
    if ("error" in created) throw new Error(JSON.stringify(created.error));
    expect(created.result).toMatchObject({ due_process_executors: PANEL, document_version: 1 });
    const draftId = created.result.sid;
    const updated = await erin.client.callOk("entitydraftservice.update_draft", {
      draft_id: draftId,
      due_process_executors: ASSEMBLY,
    });
    expect(updated).toMatchObject({ due_process_executors: ASSEMBLY, document_version: 2 });
    await erin.client.callOk("entitydraftservice.finalize_draft", { draft_id: draftId });
    expect((await erin.client.callOk("entitydraftservice.check_completion", { draft_id: draftId })).status).toBe(
      "all_signed",
    );
    const pay = () =>
      erin.client.call("entitydraftservice.pay_and_activate", { draft_id: draftId, subscription_plan: "monthly" });
    let paid = await pay();
    if ("error" in paid && paid.error.data?.variant === "InsufficientFunds") {
      await ensureFunds(zone, erin.client, Number(paid.error.data["required"]));
      paid = await pay();
    }
    if ("error" in paid) throw new Error(JSON.stringify(paid.error));
    const companyId = paid.result.company_id ?? "";
    const coop = await erin.client.callOk("companyservice.get", { company_id: companyId });
    expect(coop).toMatchObject({ company_type: "coop_standard_fzc", due_process_executors: ASSEMBLY });
  });

  test("a draft without them registers none (deployment defaults); update_draft with null clears them", async () => {
    const { erin } = cast;
    const plain = await coopDraft(erin);
    expect("result" in plain && plain.result.due_process_executors).toBeNull();
    const withSet = await coopDraft(erin, PANEL);
    if ("error" in withSet) throw new Error(JSON.stringify(withSet.error));
    const cleared = await erin.client.callOk("entitydraftservice.update_draft", {
      draft_id: withSet.result.sid,
      due_process_executors: null,
    });
    expect(cleared.due_process_executors).toBeNull();
  });

  test("a company's draft is refused them, at creation and in an edit (InvalidInput, nothing written)", async () => {
    const { frank } = cast;
    const before = (await frank.client.callOk("entitydraftservice.list_drafts")).items.length;
    const draft = {
      entity_type: "company",
      entity_name: "Frank Trading FZC",
      company_type: "single_fzc" as const,
      template_data: JSON.stringify(COMPANY_FORM),
      shareholders: [founderRow(frank, false)],
    };
    const refused = await frank.client.call("entitydraftservice.create_draft", {
      ...draft,
      due_process_executors: PANEL,
    });
    expect("error" in refused && refused.error).toMatchObject({
      code: -32006,
      data: { type: "DraftError", variant: "InvalidInput", field: "due_process_executors" },
    });
    expect((await frank.client.callOk("entitydraftservice.list_drafts")).items.length).toBe(before);
    const made = await frank.client.callOk("entitydraftservice.create_draft", draft);
    const edit = await frank.client.call("entitydraftservice.update_draft", {
      draft_id: made.sid,
      due_process_executors: null,
    });
    expect("error" in edit && edit.error.data).toMatchObject({
      variant: "InvalidInput",
      field: "due_process_executors",
    });
    const after = await frank.client.callOk("entitydraftservice.get_draft_status", { draft_id: made.sid });
    expect(after.document_version).toBe(1);
  });
});

describe("due_process_executors through companyservice.update", () => {
  test("a cooperative's founder replaces them and clears them with null", async () => {
    const { erin } = cast;
    const coop = await formCompany(cast.zone, { resident: erin, units: 0 }, [], { entity_type: "cooperative" });
    const set = await erin.client.callOk("companyservice.update", {
      company_id: coop.companyId,
      data: { due_process_executors: PANEL },
    });
    expect(set.due_process_executors).toEqual(PANEL);
    const read = await erin.client.callOk("companyservice.get", { company_id: coop.companyId });
    expect(read.due_process_executors).toEqual(PANEL);
    const cleared = await erin.client.callOk("companyservice.update", {
      company_id: coop.companyId,
      data: { due_process_executors: null },
    });
    expect(cleared.due_process_executors).toBeNull();
  });

  test("a company that is not a cooperative is refused them (InvalidInput, nothing written)", async () => {
    const { frank } = cast;
    const company = await formCompany(cast.zone, { resident: frank, units: 1 }, [], { company_type: "single_fzc" });
    const r = await frank.client.call("companyservice.update", {
      company_id: company.companyId,
      data: { due_process_executors: PANEL, description: "should not be written" },
    });
    expect("error" in r && r.error).toMatchObject({
      code: -32006,
      data: { type: "CompanyError", variant: "InvalidInput", field: "due_process_executors" },
    });
    const read = await frank.client.callOk("companyservice.get", { company_id: company.companyId });
    expect(read.due_process_executors).toBeNull();
    expect(read.description).not.toBe("should not be written");
  });
});
