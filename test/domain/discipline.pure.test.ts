import { describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";
import {
  type DecisionFacts,
  dueByOf,
  EXECUTOR_ROLES,
  enforcementRefusal,
  executorRefusal,
  executorSet,
  isJsonObjectText,
  nextStepRefusal,
  type ParentStep,
  stepOf,
} from "../../src/domain/discipline.ts";

const now = new Date("2026-11-23T10:00:00.000Z");
const before = new Date("2026-11-23T09:00:00.000Z");
const after = new Date("2026-11-23T11:00:00.000Z");

const parent = (over: Partial<ParentStep>): ParentStep => ({
  kind: "notice",
  parentKind: null,
  due_by: after,
  outcome: null,
  answered: false,
  ...over,
});

describe("nextStepRefusal: the chain order", () => {
  test("a response answers an open notice", () => {
    expect(nextStepRefusal("response", parent({}), now)).toBeNull();
  });
  test("a response after the notice's due_by is Expired", () => {
    expect(nextStepRefusal("response", parent({ due_by: now }), now)?.refusal).toBe("Expired");
  });
  test("a second response is InvalidState", () => {
    expect(nextStepRefusal("response", parent({ answered: true }), now)?.refusal).toBe("InvalidState");
  });
  test("a response to anything but a notice is InvalidState", () => {
    for (const kind of ["response", "review", "decision", "appeal"] as const) {
      expect(nextStepRefusal("response", parent({ kind }), now)?.refusal).toBe("InvalidState");
    }
  });
  test("a review follows a response", () => {
    expect(nextStepRefusal("review", parent({ kind: "response", parentKind: "notice" }), now)).toBeNull();
  });
  test("a review follows a notice only once its response window passed", () => {
    expect(nextStepRefusal("review", parent({ due_by: before }), now)).toBeNull();
    expect(nextStepRefusal("review", parent({ due_by: now }), now)).toBeNull();
    expect(nextStepRefusal("review", parent({ due_by: after }), now)?.refusal).toBe("InvalidState");
  });
  test("a review of a decision or an appeal is InvalidState", () => {
    expect(nextStepRefusal("review", parent({ kind: "decision" }), now)?.refusal).toBe("InvalidState");
    expect(nextStepRefusal("review", parent({ kind: "appeal" }), now)?.refusal).toBe("InvalidState");
  });
  test("a decision follows a review or an appeal, whatever their due_by", () => {
    expect(nextStepRefusal("decision", parent({ kind: "review", due_by: before }), now)).toBeNull();
    expect(nextStepRefusal("decision", parent({ kind: "appeal", due_by: before }), now)).toBeNull();
    expect(nextStepRefusal("decision", parent({ kind: "response" }), now)?.refusal).toBe("InvalidState");
    expect(nextStepRefusal("decision", parent({ kind: "review", answered: true }), now)?.refusal).toBe("InvalidState");
  });
  test("an appeal follows a review-parented decision other than dismiss, before its due_by", () => {
    const decision = parent({ kind: "decision", parentKind: "review", outcome: "warning" });
    expect(nextStepRefusal("appeal", decision, now)).toBeNull();
    expect(nextStepRefusal("appeal", { ...decision, outcome: "dismiss" }, now)?.refusal).toBe("InvalidState");
    expect(nextStepRefusal("appeal", { ...decision, parentKind: "appeal" }, now)?.refusal).toBe("InvalidState");
    expect(nextStepRefusal("appeal", { ...decision, due_by: now }, now)?.refusal).toBe("Expired");
    expect(nextStepRefusal("appeal", { ...decision, answered: true }, now)?.refusal).toBe("InvalidState");
  });
});

describe("steps, due_by and executors", () => {
  const config = loadConfig({}).discipline;
  test("a decision on an appeal is the appeal ruling", () => {
    expect(stepOf("decision", { kind: "appeal" })).toBe("appeal_decision");
    expect(stepOf("decision", { kind: "review" })).toBe("decision");
    expect(stepOf("notice", null)).toBe("notice");
  });
  test("due_by is the prior due_by plus the step's SLA in days", () => {
    const sla = { ...config.slaDays, review: 3 };
    expect(dueByOf("review", now, sla).toISOString()).toBe("2026-11-26T10:00:00.000Z");
    expect(dueByOf("appeal_decision", now, { ...sla, appeal_decision: 0 })).toEqual(now);
  });
  test("the deployment default sets apply when the company names no executor", () => {
    expect(executorSet("decision", null, config.executors)).toEqual(["governance_board", "ethics_committee"]);
    expect(executorSet("appeal_decision", null, config.executors)).toEqual([
      "internal_appeals_committee",
      "arbitration",
    ]);
  });
  test("the company's executor for the step replaces the default; an appeal ruling falls back to its appeal body", () => {
    const company = {
      notice: null,
      response: null,
      review: null,
      decision: "review_panel",
      appeal: "general_assembly",
      appeal_decision: null,
    } as const;
    expect(executorSet("decision", company, config.executors)).toEqual(["review_panel"]);
    expect(executorSet("appeal_decision", company, config.executors)).toEqual(["general_assembly"]);
    expect(executorSet("appeal_decision", { ...company, appeal_decision: "arbitration" }, config.executors)).toEqual([
      "arbitration",
    ]);
    expect(executorSet("decision", { ...company, decision: null }, config.executors)).toEqual(
      config.executors.decision,
    );
  });
  test("an executor outside the set is ExecutorNotAllowed", () => {
    expect(executorRefusal("governance_board", ["governance_board"])).toBeNull();
    expect(executorRefusal("arbitration", ["governance_board"])?.refusal).toBe("ExecutorNotAllowed");
  });
  test("content must be a JSON object", () => {
    expect(isJsonObjectText('{"rule":"3.1"}')).toBe(true);
    for (const bad of ["[]", "null", "1", '"x"', "{", ""]) expect(isJsonObjectText(bad)).toBe(false);
  });
});

describe("enforcementRefusal", () => {
  const removal: DecisionFacts = {
    parentKind: "review",
    outcome: "remove",
    due_by: before,
    appealed: false,
    ruling: null,
  };
  test("a removal whose appeal window passed unappealed is enforceable", () => {
    expect(enforcementRefusal(removal, now)).toBeNull();
    expect(enforcementRefusal({ ...removal, due_by: now }, now)).toBeNull();
  });
  test("while the appeal window is open it is InvalidState", () => {
    expect(enforcementRefusal({ ...removal, due_by: after }, now)?.refusal).toBe("InvalidState");
  });
  test("a pending appeal is InvalidState", () => {
    expect(enforcementRefusal({ ...removal, appealed: true }, now)?.refusal).toBe("InvalidState");
  });
  test("an appeal ruling of dismiss denies the appeal and allows enforcement, even inside the window", () => {
    expect(enforcementRefusal({ ...removal, due_by: after, appealed: true, ruling: "dismiss" }, now)).toBeNull();
  });
  test("any other appeal ruling sets the decision aside for good", () => {
    for (const ruling of ["warning", "probation", "suspension", "remove"] as const) {
      expect(enforcementRefusal({ ...removal, appealed: true, ruling }, now)?.refusal).toBe("NotEnforceable");
    }
  });
  test("outcomes other than remove are not enforceable", () => {
    for (const outcome of ["dismiss", "warning", "probation", "suspension"] as const) {
      expect(enforcementRefusal({ ...removal, outcome }, now)?.refusal).toBe("NotEnforceable");
    }
  });
  test("an appeal ruling itself is not what is enforced", () => {
    expect(enforcementRefusal({ ...removal, parentKind: "appeal" }, now)?.refusal).toBe("InvalidState");
  });
});

describe("discipline configuration", () => {
  test("SLAs and executor sets are read and validated", () => {
    const c = loadConfig({
      DISCIPLINE_SLA_NOTICE_DAYS: "7",
      DISCIPLINE_DECISION_EXECUTORS: "review_panel, ethics_committee",
    }).discipline;
    expect(c.slaDays.notice).toBe(7);
    expect(c.executors.decision).toEqual(["review_panel", "ethics_committee"]);
    expect(() => loadConfig({ DISCIPLINE_SLA_REVIEW_DAYS: "0" })).toThrow(/DISCIPLINE_SLA_REVIEW_DAYS/);
    expect(() => loadConfig({ DISCIPLINE_APPEAL_EXECUTORS: "judge" })).toThrow(/DISCIPLINE_APPEAL_EXECUTORS/);
    expect(() => loadConfig({ DISCIPLINE_APPEAL_EXECUTORS: " , " })).toThrow(/at least one/);
  });
});

test("EXECUTOR_ROLES lists exactly the spec's ExecutorRole values", async () => {
  const { readFileSync } = await import("node:fs");
  const enums = JSON.parse(readFileSync(new URL("../../spec/enums.json", import.meta.url), "utf8"));
  const spec: string[] = enums.schemas.ExecutorRole.enum;
  expect([...EXECUTOR_ROLES].sort()).toEqual([...spec].sort());
});
