import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { generate } from "../../codegen/generate.ts";
import { dataPathToPointer } from "../../codegen/openrpc-check.ts";
import { copyFixture, editJson, removeDir, writeText } from "./support.ts";

// One minimally broken copy of the fixture per diagnostic: codegen must refuse it with the exact code, spec file
// and JSON pointer, and nothing else.
const NOTES = "spec/services/note-service.openrpc.json";
const WALLETS = "spec/services/wallet-service.openrpc.json";
const NOTE = "spec/records/note.json";
const WALLET = "spec/records/wallet.json";
const PLATFORM = "spec/platform.json";

type Edit = (root: string) => void;
type Expected = [code: string, file: string, pointer: string];

const json =
  (path: string, edit: (doc: any) => void): Edit =>
  (root) =>
    editJson(root, path, edit);

const CASES: [name: string, edit: Edit, expected: Expected[]][] = [
  [
    "a tool name over 64 characters without x-mcp.name",
    json(WALLETS, (d) => delete d.methods[2]["x-mcp"].name),
    [["mcp-name-too-long", WALLETS, "/methods/2/x-mcp"]],
  ],
  [
    "a method defined twice (its alias too)",
    json(NOTES, (d) => d.methods.push({ ...d.methods[1], "x-mcp": { name: "mini_other_list" } })),
    [
      ["duplicate-method-name", NOTES, "/methods/3/name"],
      ["duplicate-method-name", NOTES, "/methods/3/name"],
    ],
  ],
  [
    "two methods with one tool name",
    json(WALLETS, (d) => (d.methods[1]["x-mcp"].name = "mini_noteservice_create")),
    [["duplicate-tool-name", WALLETS, "/methods/1/x-mcp"]],
  ],
  [
    "a $ref to nothing",
    json(NOTES, (d) => (d.methods[0].params[3].schema = { $ref: "#/components/schemas/Nothing" })),
    [["unknown-ref", NOTES, "/methods/0/params/3/schema/$ref"]],
  ],
  [
    "a result $ref to nothing",
    json(NOTES, (d) => (d.methods[0].result.schema = { $ref: "#/components/schemas/Nothing" })),
    [["unknown-ref", NOTES, "/methods/0/result/schema/$ref"]],
  ],
  [
    "a param schema without a type",
    json(NOTES, (d) => (d.methods[0].params[2].schema = { description: "anything" })),
    [["unmappable-type", NOTES, "/methods/0/params/2/schema"]],
  ],
  [
    "a record field without a type",
    json(NOTE, (d) => (d.properties.title = { description: "anything" })),
    [["unmappable-type", NOTE, "/properties/title"]],
  ],
  [
    "an optional param before a required one",
    json(WALLETS, (d) => {
      const [memo] = d.methods[1].params.splice(4, 1);
      d.methods[1].params.splice(3, 0, memo);
    }),
    [["optional-param-before-required", WALLETS, "/methods/1/params/4"]],
  ],
  [
    "a result that is a string schema",
    json(NOTES, (d) => (d.methods[0].result.schema = { $ref: "#/components/schemas/NoteKind" })),
    [["result-not-object", NOTES, "/methods/0/result/schema"]],
  ],
  [
    "an inline result schema",
    json(NOTES, (d) => (d.methods[0].result.schema = { type: "object" })),
    [["result-not-named", NOTES, "/methods/0/result/schema"]],
  ],
  [
    "a schema name defined twice",
    json(NOTES, (d) => (d.components.schemas.Money = { type: "object" })),
    [["duplicate-schema-name", NOTES, "/components/schemas/Money"]],
  ],
  [
    "an error variant spec/errors.json does not declare",
    json(NOTES, (d) => d.methods[0]["x-errors"].NoteError.push("Nope")),
    [["unknown-error-variant", NOTES, "/methods/0/x-errors/NoteError/1"]],
  ],
  [
    "an error type spec/errors.json does not list",
    json(WALLETS, (d) => (d.methods[0]["x-errors"] = { GhostError: ["NotFound"] })),
    [["unknown-error-type", WALLETS, "/methods/0/x-errors/GhostError"]],
  ],
  [
    "a file that is not JSON",
    (root) => writeText(root, "spec/schemas/broken.json", "{ not json"),
    [["invalid-json", "spec/schemas/broken.json", ""]],
  ],
  [
    "x-money on a field that is not a number",
    json(WALLET, (d) => (d.properties.currency["x-money"] = true)),
    [["numeric-not-number", WALLET, "/properties/currency/x-money"]],
  ],
  [
    "x-money that is not true",
    json(WALLET, (d) => (d.properties.balance["x-money"] = "yes")),
    [["invalid-money", WALLET, "/properties/balance/x-money"]],
  ],
  [
    "x-money and x-decimal on one field",
    json(WALLET, (d) => (d.properties.balance["x-decimal"] = [9, 6])),
    [["numeric-conflict", WALLET, "/properties/balance/x-decimal"]],
  ],
  [
    "x-decimal with a scale above its precision",
    json(WALLET, (d) => {
      delete d.properties.balance["x-money"];
      d.properties.balance["x-decimal"] = [4, 6];
    }),
    [["invalid-decimal", WALLET, "/properties/balance/x-decimal"]],
  ],
  [
    "a record field missing from required",
    json(NOTE, (d) => (d.required = d.required.filter((f: string) => f !== "pinned"))),
    [["record-field-not-required", NOTE, "/required"]],
  ],
  [
    "x-indexed naming a field the record does not have",
    json(NOTE, (d) => d["x-indexed"].push("colour")),
    [["unknown-field", NOTE, "/x-indexed"]],
  ],
  [
    "x-unique naming a field the record does not have",
    json(WALLET, (d) => (d["x-unique"] = [["user_id", "colour"]])),
    [["unknown-field", WALLET, "/x-unique"]],
  ],
  [
    "x-unique-where without a SQL condition",
    json(WALLET, (d) => (d["x-unique-where"] = [{ name: "one_open", fields: ["user_id"] }])),
    [["invalid-unique-where", WALLET, "/x-unique-where/0"]],
  ],
  [
    "x-unique-where naming a field the record does not have",
    json(WALLET, (d) => (d["x-unique-where"] = [{ name: "one_open", fields: ["colour"], where: "true" }])),
    [["unknown-field", WALLET, "/x-unique-where"]],
  ],
  [
    "an x-auth that is not a mode",
    json(NOTES, (d) => (d.methods[0]["x-auth"] = "superuser")),
    [["invalid-auth", NOTES, "/methods/0/x-auth"]],
  ],
  [
    "an x-issuer-role that is not { param, role, foreignResident }",
    json(NOTES, (d) => (d.methods[0]["x-issuer-role"] = "user_id")),
    [["invalid-issuer-role", NOTES, "/methods/0/x-issuer-role"]],
  ],
  [
    "an x-issuer-role naming a param the method does not take",
    json(NOTES, (d) => (d.methods[2]["x-issuer-role"] = { param: "company_id", role: "member" })),
    [["unknown-param", NOTES, "/methods/2/x-issuer-role/param"]],
  ],
  [
    "an x-issuer-role on a method whose x-auth is not user or session",
    json(NOTES, (d) => {
      d.methods[2]["x-auth"] = "admin";
      d.methods[2]["x-issuer-role"] = { param: "note_id", role: "member", foreignResident: "NotFound" };
    }),
    [["issuer-role-auth", NOTES, "/methods/2/x-auth"]],
  ],
  [
    "an x-issuer-role whose Forbidden refusal is not in x-errors",
    json(NOTES, (d) => (d.methods[2]["x-issuer-role"] = { param: "note_id", role: "director" })),
    [["issuer-role-variant", NOTES, "/methods/2/x-errors"]],
  ],
  [
    "a company role that is not member or a CompanyRoleKind",
    (root) => {
      editJson(root, "spec/enums.json", (e) => {
        e.schemas.CompanyRoleKind = { type: "string", enum: ["founder", "director"], description: "Roles." };
      });
      editJson(root, NOTES, (d) => (d.methods[2]["x-auth"] = "company:directr"));
    },
    [["unknown-company-role", NOTES, "/methods/2/x-auth"]],
  ],
  [
    "a service platform.json does not list",
    json(PLATFORM, (p) => delete p.domains.money.services.WalletService),
    [["service-not-in-platform", WALLETS, "/info/title"]],
  ],
  [
    "a service version other than platform.json's",
    json(WALLETS, (d) => (d.info.version = "1.0.0")),
    [["service-version-mismatch", WALLETS, "/info/version"]],
  ],
  [
    "a caller binding naming a param the method does not take",
    json(NOTES, (d) => (d.methods[0]["x-caller-binding"] = "owner_id")),
    [["unknown-param", NOTES, "/methods/0/x-caller-binding"]],
  ],
  [
    "an amountParam naming a param the method does not take",
    json(WALLETS, (d) => (d.methods[1]["x-mcp"].amountParam = "sum")),
    [["unknown-param", WALLETS, "/methods/1/x-mcp/amountParam"]],
  ],
  [
    "an x-spends that is not a boolean",
    json(WALLETS, (d) => (d.methods[1]["x-spends"] = "yes")),
    [["invalid-spends", WALLETS, "/methods/1/x-spends"]],
  ],
  [
    "an x-spends on a read-only method",
    json(WALLETS, (d) => (d.methods[0]["x-spends"] = true)),
    [["spends-read-only", WALLETS, "/methods/0/x-spends"]],
  ],
  [
    "an audit action that is not an AuditAction",
    json(NOTES, (d) => (d.methods[2]["x-audit"].action = "note_burn")),
    [["unknown-audit-action", NOTES, "/methods/2/x-audit"]],
  ],
  [
    "a service document the OpenRPC meta-schema rejects",
    json(NOTES, (d) => (d.methods[0].paramStructure = "by-nickname")),
    [["invalid-openrpc", NOTES, "/methods/0/paramStructure"]],
  ],
  [
    "a param schema the OpenRPC meta-schema rejects",
    json(WALLETS, (d) => (d.methods[0].params[0].schema.type = "strin")),
    [
      ["unmappable-type", WALLETS, "/methods/0/params/0/schema"],
      ["invalid-openrpc", WALLETS, "/methods/0/params/0/schema/type"],
    ],
  ],
  [
    "a platform service without a spec/services file",
    json(PLATFORM, (p) => (p.domains.people.services.GhostService = "1.0.0")),
    [["service-file-missing", PLATFORM, "/domains/people/services/GhostService"]],
  ],
  [
    "a platform context that is not a lower-case word",
    json(PLATFORM, (p) => (p.context = "Mini Zone")),
    [["invalid-platform", PLATFORM, "/context"]],
  ],
  [
    "a record without a PascalCase title",
    json(WALLET, (d) => (d.title = "wallet")),
    [["record-title-missing", WALLET, "/title"]],
  ],
  [
    "a record declaring sid",
    json(NOTE, (d) => {
      d.properties.sid = { type: "string" };
      d.required.push("sid");
    }),
    [["record-declares-sid", NOTE, "/properties/sid"]],
  ],
  [
    "an x-crud that is not a mode",
    json(NOTE, (d) => (d["x-crud"] = "everyone")),
    [["invalid-crud-mode", NOTE, "/x-crud"]],
  ],
  [
    "a record x-domain that platform.json does not have",
    json(NOTE, (d) => (d["x-domain"] = "peoples")),
    [["unknown-domain", NOTE, "/x-domain"]],
  ],
  [
    "a service title that is not <Name>Service",
    json(WALLETS, (d) => (d.info.title = "Wallets")),
    [
      ["service-title-invalid", WALLETS, "/info/title"],
      ["service-file-missing", PLATFORM, "/domains/money/services/WalletService"],
    ],
  ],
  [
    "a service x-domain other than platform.json's",
    json(WALLETS, (d) => (d["x-domain"] = "people")),
    [["service-domain-mismatch", WALLETS, "/x-domain"]],
  ],
  [
    "a method name outside its service's prefix",
    json(WALLETS, (d) => (d.methods[0].name = "walletservice.GetBalance")),
    [["method-name-invalid", WALLETS, "/methods/0/name"]],
  ],
  [
    "a param listed twice",
    json(WALLETS, (d) => d.methods[1].params.push({ name: "memo", required: false, schema: { type: "string" } })),
    [["duplicate-param-name", WALLETS, "/methods/1/params/5"]],
  ],
];

let root: string;
beforeEach(() => {
  root = copyFixture();
});
afterEach(() => removeDir(root));

describe("diagnostics", () => {
  const diagnose = async (): Promise<Expected[]> =>
    (await generate(root, { validateOnly: true })).diagnostics.map((d): Expected => [d.code, d.file, d.pointer]);

  test("the unbroken fixture has none", async () => {
    expect(await diagnose()).toEqual([]);
  });

  test.each(CASES)("%s", async (_name, edit, expected) => {
    edit(root);
    expect(await diagnose()).toEqual(expected);
  });

  test("every diagnostic code codegen can raise has a case here", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(import.meta.dirname, "..", "..", "codegen");
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    const raised = new Set([...sources.matchAll(/(?:\.add\(\s*|code: )"([a-z]+(?:-[a-z]+)+)"/g)].map((m) => m[1]));
    expect(raised.size).toBeGreaterThan(20);
    const tested = new Set(CASES.flatMap(([, , expected]) => expected.map(([code]) => code)));
    expect([...raised].filter((code) => !tested.has(code!))).toEqual([]);
  });
});

test("ajv data paths become JSON pointers", () => {
  expect(dataPathToPointer(".methods[0].params[12].schema")).toBe("/methods/0/params/12/schema");
  expect(dataPathToPointer(".components.schemas['a/b~c'].type")).toBe("/components/schemas/a~1b~0c/type");
  expect(dataPathToPointer("")).toBe("");
});
