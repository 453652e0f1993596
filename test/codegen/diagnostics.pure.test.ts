import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DiagnosticCode } from "../../codegen/diagnostic-codes.ts";
import type { Diagnostic } from "../../codegen/diagnostics.ts";
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
    "an x-target that is not { record, param, ... }",
    json(NOTES, (d) => (d.methods[2]["x-target"] = "note_id")),
    [["invalid-target", NOTES, "/methods/2/x-target"]],
  ],
  [
    "an x-target naming a record the spec lacks",
    json(NOTES, (d) => (d.methods[2]["x-target"] = { record: "Memo", param: "note_id" })),
    [["unknown-target-record", NOTES, "/methods/2/x-target/record"]],
  ],
  [
    "an x-target naming a param the method does not take",
    json(NOTES, (d) => (d.methods[2]["x-target"] = { record: "Note", param: "memo_id" })),
    [["unknown-param", NOTES, "/methods/2/x-target/param"]],
  ],
  [
    "an x-target matching a field that is not indexed",
    json(NOTES, (d) => (d.methods[2]["x-target"] = { record: "Note", param: "note_id", field: "title" })),
    [["invalid-target-field", NOTES, "/methods/2/x-target/field"]],
  ],
  [
    "an x-target with a role on a record that declares no x-company",
    json(
      NOTES,
      (d) => (d.methods[1]["x-target"] = { record: "Note", param: "user_id", field: "user_id", role: "member" }),
    ),
    [
      ["target-without-company", NOTES, "/methods/1/x-target"],
      ["target-variant", NOTES, "/methods/1/x-errors"],
    ],
  ],
  [
    "an x-target on a method whose x-auth is not user or session",
    json(NOTES, (d) => {
      d.methods[2]["x-auth"] = "admin";
      d.methods[2]["x-target"] = { record: "Note", param: "note_id" };
    }),
    [["target-auth", NOTES, "/methods/2/x-auth"]],
  ],
  [
    "an x-target proxy without foreignResident, an adminBypass other than false, an operable action unknown",
    (root) => {
      editJson(root, NOTES, (d) => {
        d.methods[0]["x-target"] = { record: "Note", param: "user_id", field: "user_id", proxy: true };
        d.methods[1]["x-target"] = { record: "Note", param: "user_id", field: "user_id", adminBypass: true };
        d.methods[2]["x-target"] = { record: "Note", param: "note_id", operable: "dance" };
      });
    },
    [
      ["invalid-target", NOTES, "/methods/0/x-target"],
      ["invalid-target", NOTES, "/methods/1/x-target"],
      ["invalid-target", NOTES, "/methods/2/x-target"],
    ],
  ],
  [
    "an x-target party without a role, with two kinds, or naming a field the record lacks",
    (root) => {
      editJson(root, NOTE, (d) => (d["x-company"] = "user_id"));
      editJson(root, NOTES, (d) => {
        d.methods[0]["x-target"] = { record: "Note", param: "user_id", field: "user_id", party: { user: "user_id" } };
        d.methods[1]["x-target"] = {
          record: "Note",
          param: "user_id",
          field: "user_id",
          role: "member",
          party: { user: "user_id", resident: "user_id" },
        };
        d.methods[2]["x-target"] = { record: "Note", param: "note_id", role: "member", party: { user: "author" } };
      });
    },
    [
      ["invalid-target", NOTES, "/methods/0/x-target"],
      ["invalid-target", NOTES, "/methods/1/x-target"],
      ["unknown-field", NOTES, "/methods/2/x-target/party"],
      ["target-variant", NOTES, "/methods/2/x-errors"],
    ],
  ],
  [
    "an x-target proxy that is neither true nor see",
    json(NOTES, (d) => {
      d.methods[0]["x-target"] = {
        record: "Note",
        param: "user_id",
        field: "user_id",
        foreignResident: "NotFound",
        proxy: "act",
      };
    }),
    [["invalid-target", NOTES, "/methods/0/x-target"]],
  ],
  [
    "an x-target whose NotFound refusal is not in x-errors",
    json(NOTES, (d) => (d.methods[0]["x-target"] = { record: "Note", param: "user_id", field: "user_id" })),
    [["target-variant", NOTES, "/methods/0/x-errors"]],
  ],
  [
    "an x-target role that is not member or a CompanyRoleKind",
    (root) => {
      editJson(root, "spec/enums.json", (e) => {
        e.schemas.CompanyRoleKind = { type: "string", enum: ["founder", "director"], description: "Roles." };
      });
      editJson(root, NOTE, (d) => (d["x-company"] = "user_id"));
      editJson(root, NOTES, (d) => {
        d.methods[1]["x-target"] = { record: "Note", param: "user_id", field: "user_id", role: "directr" };
        d.methods[1]["x-errors"].NoteError.push("NotFound", "Forbidden");
      });
    },
    [["unknown-company-role", NOTES, "/methods/1/x-target/role"]],
  ],
  [
    "an x-acts-as that is neither a param nor { param | caller, action }",
    json(NOTES, (d) => (d.methods[2]["x-acts-as"] = { caller: true, action: "dance" })),
    [["invalid-acts-as", NOTES, "/methods/2/x-acts-as"]],
  ],
  [
    "an x-acts-as role on the caller's own residents (a role needs the named resident)",
    json(NOTES, (d) => (d.methods[2]["x-acts-as"] = { caller: true, role: "director" })),
    [["invalid-acts-as", NOTES, "/methods/2/x-acts-as"]],
  ],
  [
    "an x-acts-as role without an x-target company, nor the InvalidState and Forbidden it refuses with",
    json(NOTES, (d) => (d.methods[2]["x-acts-as"] = { param: "note_id", role: "director" })),
    [
      ["invalid-acts-as", NOTES, "/methods/2/x-acts-as/role"],
      ["target-variant", NOTES, "/methods/2/x-errors"],
      ["target-variant", NOTES, "/methods/2/x-errors"],
    ],
  ],
  [
    "an x-acts-as naming a param the method does not take, without the InvalidState it refuses with",
    json(NOTES, (d) => (d.methods[2]["x-acts-as"] = "resident_id")),
    [
      ["unknown-param", NOTES, "/methods/2/x-acts-as"],
      ["target-variant", NOTES, "/methods/2/x-errors"],
    ],
  ],
  [
    "an x-company that is neither a field nor { field, resident }",
    json(NOTE, (d) => (d["x-company"] = { field: "user_id", resident: true })),
    [["invalid-company-link", NOTE, "/x-company"]],
  ],
  [
    "an x-company going through a record that has no x-company of its own",
    json(NOTE, (d) => (d["x-company"] = { through: "Wallet", field: "user_id" })),
    [["invalid-company-link", NOTE, "/x-company/through"]],
  ],
  [
    "an x-company naming a field the record lacks",
    json(NOTE, (d) => (d["x-company"] = "company_id")),
    [["unknown-field", NOTE, "/x-company"]],
  ],
  [
    "an x-auth naming a company role (x-target's role says that now)",
    json(NOTES, (d) => (d.methods[1]["x-auth"] = "company:director")),
    [["invalid-auth", NOTES, "/methods/1/x-auth"]],
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
    [["invalid-extension-value", WALLETS, "/methods/1/x-spends"]],
  ],
  [
    "an x-spends on a read-only method",
    json(WALLETS, (d) => (d.methods[0]["x-spends"] = true)),
    [["spends-read-only", WALLETS, "/methods/0/x-spends"]],
  ],
  [
    "an x-visibility that is neither { kind, param } nor { kind, items }",
    json(NOTES, (d) => (d.methods[1]["x-visibility"] = { kind: "note" })),
    [["invalid-visibility", NOTES, "/methods/1/x-visibility"]],
  ],
  [
    "an x-visibility on a write whose target has no company, with an unknown kind, param and items field",
    (root) => {
      editJson(root, NOTES, (d) => {
        d.methods[1]["x-visibility"] = { kind: "note", items: "notes" };
        d.methods[2]["x-visibility"] = { kind: "note", param: "note_sid" };
      });
    },
    [
      ["invalid-visibility", NOTES, "/methods/1/x-visibility/kind"],
      ["invalid-visibility", NOTES, "/methods/1/x-visibility/items"],
      ["invalid-visibility", NOTES, "/methods/1/x-visibility"],
      ["target-variant", NOTES, "/methods/1/x-errors"],
      ["invalid-visibility", NOTES, "/methods/2/x-visibility/kind"],
      ["unknown-param", NOTES, "/methods/2/x-visibility/param"],
      ["invalid-visibility", NOTES, "/methods/2/x-visibility"],
      ["invalid-visibility", NOTES, "/methods/2/x-visibility"],
    ],
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
    "an x-crud-scope that is not an object of scalars, and one naming a field the record lacks",
    (root) => {
      editJson(root, NOTE, (d) => (d["x-crud-scope"] = { title: ["a"] }));
    },
    [["invalid-crud-scope", NOTE, "/x-crud-scope"]],
  ],
  [
    "an x-crud-scope naming a field the record lacks",
    json(NOTE, (d) => (d["x-crud-scope"] = { archived: false })),
    [["unknown-field", NOTE, "/x-crud-scope"]],
  ],
  [
    "an x-secret property inside a record property whose type does not admit null",
    json(NOTE, (d) => {
      d.properties.meta = { type: "object", properties: { answer: { type: "string", "x-secret": true } } };
      d.required.push("meta");
    }),
    [["secret-not-nullable", NOTE, "/properties/meta/properties/answer"]],
  ],
  [
    "an x-crud that is not a mode",
    json(NOTE, (d) => (d["x-crud"] = "everyone")),
    [["invalid-crud-mode", NOTE, "/x-crud"]],
  ],
  [
    "descriptions that name repository files (the served contract speaks of behaviour)",
    (root) => {
      editJson(root, NOTES, (d) => {
        d.methods[0].description = "Creates a note (rules: src/domain/notes.ts).";
        d.methods[0].summary = "See docs/decisions.md";
      });
      editJson(root, NOTE, (d) => (d.properties.title.description = "Listed by tools/list, kept in codegen/emit"));
    },
    [
      ["description-cites-source", NOTE, "/properties/title/description"],
      ["description-cites-source", NOTES, "/methods/0/summary"],
      ["description-cites-source", NOTES, "/methods/0/description"],
    ],
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

const AUTH_MODES = "anonymous, user, session, admin, partner, webhook";
const METHOD_KEYS =
  "x-auth, x-mcp, x-errors, x-audit, x-password, x-caller-binding, x-internal, x-target, x-acts-as, x-visibility, x-spends";
const at = (code: DiagnosticCode, file: string, pointer: string, message: string): Diagnostic => ({
  code,
  severity: "error",
  file,
  pointer,
  message,
});

// Strict extensions (issue 27): an unknown `x-` key or value is refused, with the message asserted too.
const EXTENSION_CASES: [name: string, edit: Edit, expected: Diagnostic[]][] = [
  [
    "a misspelt method key (did you mean), whose method then has no x-auth",
    json(NOTES, (d) => {
      d.methods[1]["x-auht"] = d.methods[1]["x-auth"];
      delete d.methods[1]["x-auth"];
    }),
    [
      at(
        "unknown-extension",
        NOTES,
        "/methods/1/x-auht",
        'unknown extension "x-auht" on a method; did you mean "x-auth"?',
      ),
      at("missing-auth", NOTES, "/methods/1/x-auth", `x-auth is required: one of ${AUTH_MODES}`),
    ],
  ],
  [
    "an unknown method key with no near miss",
    json(NOTES, (d) => (d.methods[0]["x-colour"] = "blue")),
    [
      at(
        "unknown-extension",
        NOTES,
        "/methods/0/x-colour",
        `unknown extension "x-colour" on a method; known: ${METHOD_KEYS}`,
      ),
    ],
  ],
  [
    "a record key on a method",
    json(NOTES, (d) => (d.methods[0]["x-indexed"] = ["user_id"])),
    [
      at(
        "unknown-extension",
        NOTES,
        "/methods/0/x-indexed",
        'unknown extension "x-indexed" on a method; x-indexed belongs on a record (spec/records)',
      ),
    ],
  ],
  [
    "an unknown x-mcp key",
    json(NOTES, (d) => {
      d.methods[1]["x-mcp"].readonly = true;
      delete d.methods[1]["x-mcp"].readOnly;
    }),
    [
      at(
        "unknown-extension",
        NOTES,
        "/methods/1/x-mcp/readonly",
        'unknown key "readonly" in x-mcp; did you mean "readOnly"?',
      ),
    ],
  ],
  [
    "an extension value of the wrong type",
    json(WALLETS, (d) => {
      d.methods[2]["x-internal"] = "yes";
      d.methods[0]["x-mcp"].readOnly = "true";
    }),
    [
      at(
        "invalid-extension-value",
        WALLETS,
        "/methods/0/x-mcp/readOnly",
        'x-mcp.readOnly must be true or false, not the string "true"',
      ),
      at(
        "invalid-extension-value",
        WALLETS,
        "/methods/2/x-internal",
        'x-internal must be true or false, not the string "yes"',
      ),
    ],
  ],
  [
    "an x-auth that is a near miss of a mode",
    json(NOTES, (d) => (d.methods[0]["x-auth"] = "usr")),
    [at("invalid-auth", NOTES, "/methods/0/x-auth", `x-auth "usr" is not one of ${AUTH_MODES}; did you mean "user"?`)],
  ],
  [
    "a caller binding of an unknown kind",
    json(WALLETS, (d) => (d.methods[1]["x-caller-binding"].kind = "residnt")),
    [
      at(
        "invalid-extension-value",
        WALLETS,
        "/methods/1/x-caller-binding/kind",
        'x-caller-binding.kind "residnt" is not one of user, resident, partner; did you mean "resident"?',
      ),
    ],
  ],
  [
    "an x-crud that is a near miss of a mode",
    json(NOTE, (d) => (d["x-crud"] = "onwer")),
    [
      at(
        "invalid-crud-mode",
        NOTE,
        "/x-crud",
        'x-crud "onwer" is not one of none, read, owner, admin; did you mean "owner"?',
      ),
    ],
  ],
  [
    "an audit target type that is not an AuditTargetType",
    json(NOTES, (d) => (d.methods[2]["x-audit"].targetType = "notes")),
    [
      at(
        "unknown-audit-target-type",
        NOTES,
        "/methods/2/x-audit/targetType",
        '"notes" is not an AuditTargetType; did you mean "note"?',
      ),
    ],
  ],
  [
    "an unknown record key",
    json(NOTE, (d) => (d["x-uniqe"] = [["user_id", "title"]])),
    [
      at(
        "unknown-extension",
        NOTE,
        "/x-uniqe",
        'unknown extension "x-uniqe" on a record (spec/records); did you mean "x-unique"?',
      ),
    ],
  ],
  [
    "an unknown record property key",
    json(WALLET, (d) => {
      d.properties.balance["x-mony"] = true;
      delete d.properties.balance["x-money"];
    }),
    [
      at(
        "unknown-extension",
        WALLET,
        "/properties/balance/x-mony",
        'unknown extension "x-mony" on a record\'s property; did you mean "x-money"?',
      ),
    ],
  ],
  [
    "a record property key in a param schema",
    json(WALLETS, (d) => (d.methods[1].params[3].schema["x-money"] = true)),
    [
      at(
        "unknown-extension",
        WALLETS,
        "/methods/1/params/3/schema/x-money",
        "unknown extension \"x-money\" on anywhere else (params, results, components, shared schemas, enums, a property's own schemas); x-money belongs on a record's property",
      ),
    ],
  ],
  [
    "a method without x-auth",
    json(NOTES, (d) => delete d.methods[0]["x-auth"]),
    [at("missing-auth", NOTES, "/methods/0/x-auth", `x-auth is required: one of ${AUTH_MODES}`)],
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

  test.each(EXTENSION_CASES)("strict extensions: %s", async (_name, edit, expected) => {
    edit(root);
    expect((await generate(root, { validateOnly: true })).diagnostics).toEqual(expected);
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
    const tested = new Set([
      ...CASES.flatMap(([, , expected]) => expected.map(([code]) => code)),
      ...EXTENSION_CASES.flatMap(([, , expected]) => expected.map((d) => d.code)),
    ]);
    expect([...raised].filter((code) => !tested.has(code!))).toEqual([]);
  });
});

test("ajv data paths become JSON pointers", () => {
  expect(dataPathToPointer(".methods[0].params[12].schema")).toBe("/methods/0/params/12/schema");
  expect(dataPathToPointer(".components.schemas['a/b~c'].type")).toBe("/components/schemas/a~1b~0c/type");
  expect(dataPathToPointer("")).toBe("");
});
