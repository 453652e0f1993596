import { describe, expect, test } from "vitest";
import { diffEdit } from "./support.ts";

// One row per kind of change, on a small in-memory OpenRPC document (test/spec-diff/support.ts): the edit, then
// exactly the changes `spec diff` must report (classification and JSON pointer) and a word of the message.
const create = (d: any) => d.methods[0];
const param = (d: any, name: string) => create(d).params.find((p: any) => p.name === name);
const schema = (d: any, name: string) => d.components.schemas[name];
const M = "/methods/residentservice.create";
const R = "/components/schemas/ResidentResult";

type Row = [
  string,
  (d: any) => void,
  [kind: "breaking" | "compatible", pointer: string, words: string][],
  before?: (d: any) => void,
];

const BREAKING: Row[] = [
  [
    "method removed",
    (d) => d.methods.splice(1, 1),
    [["breaking", "/methods/residentservice.get", "and its MCP tool fz_residentservice_get removed"]],
  ],
  [
    "MCP tool renamed",
    (d) => (create(d)["x-mcp"].name = "fz_create"),
    [
      ["breaking", "/tools/fz_residentservice_create", "removed"],
      ["compatible", "/tools/fz_create", "added"],
    ],
  ],
  [
    "new required param",
    (d) => create(d).params.push({ name: "tier", required: true, schema: { type: "string" } }),
    [["breaking", `${M}/params/tier`, "new required param"]],
  ],
  [
    "optional param made required",
    (d) => (param(d, "kind").required = true),
    [["breaking", `${M}/params/kind`, "now required"]],
  ],
  ["param removed", (d) => create(d).params.splice(4, 1), [["breaking", `${M}/params/count`, "refused as unknown"]]],
  [
    "param no longer nullable",
    (d) => (param(d, "note").schema.type = "string"),
    [["breaking", `${M}/params/note/schema`, "null no longer allowed"]],
  ],
  [
    "param type narrowed number -> integer",
    (d) => (param(d, "count").schema.type = "integer"),
    [["breaking", `${M}/params/count/schema/type`, "narrowed from number to integer"]],
    (d) => (param(d, "count").schema.type = "number"),
  ],
  [
    "param type changed",
    (d) => (param(d, "count").schema.type = "string"),
    [["breaking", `${M}/params/count/schema/type`, "changed from integer to string"]],
  ],
  [
    "param enum value removed",
    (d) => schema(d, "ResidentKind").enum.pop(),
    [["breaking", "/components/schemas/ResidentKind/enum/business", "removed"]],
  ],
  [
    "param maxLength tightened",
    (d) => (param(d, "note").schema.maxLength = 100),
    [["breaking", `${M}/params/note/schema/maxLength`, "from 200 to 100"]],
  ],
  [
    "param format added",
    (d) => (param(d, "user_id").schema.format = "uuid"),
    [["breaking", `${M}/params/user_id/schema/format`, "added"]],
  ],
  [
    "params record gains a required field",
    (d) => {
      schema(d, "ResidentInput").properties.phone = { type: "string" };
      schema(d, "ResidentInput").required.push("phone");
    },
    [["breaking", "/components/schemas/ResidentInput/properties/phone", "required field phone added"]],
  ],
  [
    "params record refuses unknown fields",
    (d) => (schema(d, "ResidentInput").additionalProperties = false),
    [["breaking", "/components/schemas/ResidentInput/additionalProperties", "unknown fields now refused"]],
  ],
  [
    "result field removed",
    (d) => {
      delete schema(d, "ResidentResult").properties.balance;
      schema(d, "ResidentResult").required.pop();
    },
    [["breaking", `${R}/properties/balance`, "field balance removed"]],
  ],
  [
    "result field type changed",
    (d) => (schema(d, "ResidentResult").properties.balance = { type: "string" }),
    [["breaking", `${R}/properties/balance/type`, "from number to string"]],
  ],
  [
    "result field type widened",
    (d) => (schema(d, "ResidentResult").properties.resident_id = { type: ["string", "integer"] }),
    [["breaking", `${R}/properties/resident_id/type`, "widened"]],
  ],
  [
    "result field may now be null",
    (d) => (schema(d, "ResidentResult").properties.resident_id = { type: ["string", "null"] }),
    [["breaking", `${R}/properties/resident_id`, "may now be null"]],
  ],
  [
    "result field no longer required",
    (d) => schema(d, "ResidentResult").required.shift(),
    [["breaking", `${R}/properties/resident_id`, "no longer required"]],
  ],
  [
    "result enum value added",
    (d) => schema(d, "ResidentStatus").enum.push("closed"),
    [["breaking", "/components/schemas/ResidentStatus/enum/closed", "added"]],
  ],
  [
    "result schema replaced by a narrower one",
    (d) => {
      d.components.schemas.Other = {
        type: "object",
        properties: { resident_id: { type: "string" } },
        required: ["resident_id"],
      };
      d.methods[1].result.schema = { $ref: "#/components/schemas/Other" };
    },
    [
      ["breaking", "/methods/residentservice.get/result/properties/status", "removed"],
      ["breaking", "/methods/residentservice.get/result/properties/nickname", "removed"],
      ["breaking", "/methods/residentservice.get/result/properties/balance", "removed"],
      ["compatible", "/methods/residentservice.get/result/additionalProperties", "now allowed"],
      ["compatible", "/methods/residentservice.get/result/description", "changed"],
      ["compatible", "/components/schemas/Other", "added"],
    ],
  ],
  [
    "error variant removed",
    (d) => (create(d).errors = []),
    [["breaking", `${M}/x-errors/ResidentError/InvalidInput`, "removed"]],
  ],
  [
    "error code changed",
    (d) => (create(d).errors[0].code = -32005),
    [["breaking", `${M}/x-errors/ResidentError/InvalidInput`, "code changed from -32006 to -32005"]],
  ],
  [
    "auth tightened user -> admin",
    (d) => (create(d)["x-auth"] = "admin"),
    [["breaking", `${M}/x-auth`, "tightened: x-auth user -> admin"]],
  ],
  [
    "auth tightened anonymous -> user",
    (d) => (d.methods[1]["x-auth"] = "user"),
    [["breaking", "/methods/residentservice.get/x-auth", "tightened: x-auth anonymous -> user"]],
    (d) => (d.methods[1]["x-auth"] = "anonymous"),
  ],
  [
    "company role changed (director -> shareholder)",
    (d) => (create(d)["x-auth"] = "company:shareholder"),
    [["breaking", `${M}/x-auth`, "auth changed"]],
    (d) => (create(d)["x-auth"] = "company:director"),
  ],
  [
    "API key no longer allowed (user -> session)",
    (d) => (create(d)["x-auth"] = "session"),
    [["breaking", `${M}/x-auth`, "tightened"]],
  ],
  [
    "company role narrowed (member -> director)",
    (d) => (create(d)["x-auth"] = "company:director"),
    [["breaking", `${M}/x-auth`, "tightened: x-auth user -> company:director"]],
  ],
  [
    "made internal",
    (d) => (create(d)["x-internal"] = true),
    [["breaking", `${M}/x-internal`, "every outside call is refused"]],
  ],
  [
    "alias removed",
    (d) => delete create(d)["x-alias"],
    [["breaking", `${M}/x-alias/digitalresidentservice.create`, "removed"]],
  ],
];

const COMPATIBLE: Row[] = [
  [
    "method added",
    (d) =>
      d.methods.push({ ...structuredClone(d.methods[1]), name: "residentservice.list", "x-mcp": { name: "fz_list" } }),
    [["compatible", "/methods/residentservice.list", "added (MCP tool fz_list)"]],
  ],
  [
    "optional param added",
    (d) => create(d).params.push({ name: "tier", required: false, schema: { type: "string" } }),
    [["compatible", `${M}/params/tier`, "optional param tier added"]],
  ],
  [
    "required param made optional",
    (d) => (param(d, "user_id").required = false),
    [["compatible", `${M}/params/user_id`, "now optional"]],
  ],
  [
    "param enum value added",
    (d) => schema(d, "ResidentKind").enum.push("partner"),
    [["compatible", "/components/schemas/ResidentKind/enum/partner", "added"]],
  ],
  [
    "param type widened integer -> number",
    (d) => (param(d, "count").schema.type = "number"),
    [["compatible", `${M}/params/count/schema/type`, "widened from integer to number"]],
  ],
  [
    "param made nullable",
    (d) => (param(d, "user_id").schema.type = ["string", "null"]),
    [["compatible", `${M}/params/user_id/schema`, "may now be null"]],
  ],
  [
    "param maxLength loosened",
    (d) => (param(d, "note").schema.maxLength = 500),
    [["compatible", `${M}/params/note/schema/maxLength`, "from 200 to 500"]],
  ],
  [
    "params record: optional field added",
    (d) => (schema(d, "ResidentInput").properties.phone = { type: "string" }),
    [["compatible", "/components/schemas/ResidentInput/properties/phone", "optional field phone added"]],
  ],
  [
    "method description changed",
    (d) => (create(d).description = "Creates a resident."),
    [["compatible", `${M}/description`, "description changed"]],
  ],
  ["summary changed", (d) => (create(d).summary = "Create"), [["compatible", `${M}/summary`, "summary changed"]]],
  [
    "param description changed",
    (d) => (param(d, "kind").description = "personal or business"),
    [["compatible", `${M}/params/kind/description`, "description changed"]],
  ],
  [
    "result field added",
    (d) => {
      schema(d, "ResidentResult").properties.tier = { type: "string" };
      schema(d, "ResidentResult").required.push("tier");
    },
    [["compatible", `${R}/properties/tier`, "required field tier added"]],
  ],
  [
    "result enum value removed",
    (d) => schema(d, "ResidentStatus").enum.pop(),
    [["compatible", "/components/schemas/ResidentStatus/enum/suspended", "removed"]],
  ],
  [
    "result field no longer nullable",
    (d) => (schema(d, "ResidentResult").properties.nickname = { type: "string" }),
    [["compatible", `${R}/properties/nickname`, "null no longer allowed"]],
  ],
  [
    "error variant added",
    (d) =>
      create(d).errors.push({
        code: -32003,
        message: "ResidentError.NotFound",
        data: { type: "ResidentError", variant: "NotFound" },
      }),
    [["compatible", `${M}/x-errors/ResidentError/NotFound`, "added (code -32003)"]],
  ],
  [
    "auth loosened admin -> user",
    (d) => (create(d)["x-auth"] = "user"),
    [["compatible", `${M}/x-auth`, "loosened: x-auth admin -> user"]],
    (d) => (create(d)["x-auth"] = "admin"),
  ],
  [
    "company role widened (director -> member)",
    (d) => (create(d)["x-auth"] = "company:member"),
    [["compatible", `${M}/x-auth`, "loosened"]],
    (d) => (create(d)["x-auth"] = "company:director"),
  ],
  [
    "no longer internal",
    (d) => delete create(d)["x-internal"],
    [["compatible", `${M}/x-internal`, "no longer internal"]],
    (d) => (create(d)["x-internal"] = true),
  ],
  [
    "alias added",
    (d) => (d.methods[1]["x-alias"] = ["digitalresidentservice.get"]),
    [["compatible", "/methods/residentservice.get/x-alias/digitalresidentservice.get", "added"]],
  ],
  [
    "MCP hint changed",
    (d) => (create(d)["x-mcp"].destructive = true),
    [["compatible", `${M}/x-mcp/destructive`, "from false to true"]],
  ],
  [
    "named schema added",
    (d) => (d.components.schemas.Extra = { type: "string" }),
    [["compatible", "/components/schemas/Extra", "added"]],
  ],
];

function check([, edit, expected, before]: Row): void {
  const changes = diffEdit(edit, before);
  expect(changes.map((c) => [c.kind, c.pointer])).toEqual(expected.map(([kind, pointer]) => [kind, pointer]));
  expected.forEach(([, , words], i) => {
    expect(changes[i]!.message).toContain(words);
  });
}

describe("breaking changes", () => {
  for (const row of BREAKING) test(row[0], () => check(row));
});

describe("compatible changes", () => {
  for (const row of COMPATIBLE) test(row[0], () => check(row));
});

test("no change, no output", () => {
  expect(diffEdit(() => {})).toEqual([]);
});

test("every row of the table reports at least one change of its own kind", () => {
  for (const [name, , expected] of BREAKING)
    expect(
      expected.some(([kind]) => kind === "breaking"),
      name,
    ).toBe(true);
  for (const [name, , expected] of COMPATIBLE)
    expect(
      expected.every(([kind]) => kind === "compatible"),
      name,
    ).toBe(true);
});

test("a malformed nested schema is a change, not a crash", () => {
  const changes = diffEdit((d) => (d.components.schemas.ResidentResult.properties.balance = null));
  expect(changes).toEqual([
    {
      pointer: "/components/schemas/ResidentResult/properties/balance",
      kind: "breaking",
      message: "schema changed (not an object schema)",
    },
  ]);
});
