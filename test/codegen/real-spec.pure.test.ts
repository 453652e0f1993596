import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { Diagnostic } from "../../codegen/diagnostics.ts";
import { formatDiagnostic } from "../../codegen/diagnostics.ts";
import { generate } from "../../codegen/generate.ts";
import type { JsonSchema, SpecModel } from "../../codegen/model.ts";
import type { GeneratedFile } from "../../codegen/write.ts";
import { REPO_ROOT } from "./support.ts";

// The committed spec/ against the seed catalogue (shared/ sits beside the repository, also in CI's clone).
const CATALOG = join(REPO_ROOT, "..", "shared", "catalog", "seed-operations.json");

interface SeedParam {
  name: string;
  optional: boolean;
  type: string;
}
interface SeedOperation {
  name: string;
  params: SeedParam[];
}
interface SeedService {
  service: string;
  operations: SeedOperation[];
}

/**
 * Optional params an issue added to a seed operation (named by the issue text), after the tabled ones:
 * issue 15 "Tax filings" adds `amends_filing_id` to create_filing.
 */
const ISSUE_ADDED_PARAMS: Record<string, readonly string[]> = {
  "taxservice.create_filing": ["amends_filing_id"],
  "entitydraftservice.accept_invitation": ["signature"],
  "entitydraftservice.create_draft": ["due_process_executors"],
};

/** Seed records without generic CRUD and a seed enumeration that no method reaches, served all the same. */
const SERVED_WITHOUT_METHODS = [
  "MfaRecoverySession",
  "ExternalCompanyRegistration",
  "ExternalIdState",
  "Proxy",
  "CoopEvent",
  "InvoicePaymentDefault",
  "PaymentMethod",
];

let model: SpecModel;
let files: GeneratedFile[];
let diagnostics: Diagnostic[];
let seconds: number;

beforeAll(async () => {
  const started = performance.now();
  const result = await generate(REPO_ROOT);
  seconds = (performance.now() - started) / 1000;
  model = result.model!;
  files = result.files;
  diagnostics = result.diagnostics;
  console.log(`codegen: whole spec generated in ${seconds.toFixed(2)} s (${model.methods.length} methods)`);
}, 120_000);

/** The schema a seed type maps to (docs/spec-format.md "Values"). */
function expectedSchema(type: string): JsonSchema {
  const list = /^\[(.+)\]$/.exec(type);
  if (list) return { type: "array", items: expectedSchema(list[1]!) };
  switch (type) {
    case "str":
    case "text":
      return { type: "string" };
    case "bool":
      return { type: "boolean" };
    case "i32":
    case "i64":
      return { type: "integer" };
    case "f64":
      return { type: "number" };
    case "otime":
      return { type: "string", format: "date-time" };
    default:
      return { $ref: `#/components/schemas/${type}` };
  }
}

/** Only what says which type a schema is; constraints and descriptions may be added freely. */
function typeOf(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const key of ["$ref", "type", "format"]) if (schema[key] !== undefined) out[key] = schema[key];
  if (schema["items"]) out["items"] = typeOf(schema["items"] as JsonSchema);
  return out;
}

describe("the real spec", () => {
  test("generates without diagnostics", () => {
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });

  test("every MCP tool name has at most 64 characters and is unique", () => {
    const names = model.methods.map((m) => m.mcp.name);
    expect(names.filter((n) => n.length > 64)).toEqual([]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const manifest = JSON.parse(files.find((f) => f.path === "generated/mcp-tools.json")!.content) as {
      name: string;
    }[];
    expect(manifest.map((t) => t.name)).toEqual(names);
  });

  test("the served `all` document names the seed's records without CRUD, PaymentMethod and AuthResult", () => {
    const all = JSON.parse(files.find((f) => f.path === "generated/openrpc/all.json")!.content) as {
      methods: { name: string; result: { schema: JsonSchema } }[];
      components: { schemas: Record<string, JsonSchema> };
    };
    const schemas = all.components.schemas;
    for (const name of SERVED_WITHOUT_METHODS) expect(schemas[name], name).toBeDefined();
    expect(schemas["PaymentMethod"]?.["enum"]).toEqual(["crypto", "mobilepay", "bank_transfer", "card"]);
    // Public views: no record is served with its x-secret fields.
    for (const record of model.records.filter((r) => r.served)) {
      const served = Object.keys(schemas[record.name]!["properties"] as object);
      expect(
        served.filter((f) => record.secret.includes(f)),
        record.name,
      ).toEqual([]);
    }
    for (const name of ["Counter", "RateLimitCounter", "MfaChallenge"]) expect(schemas[name], name).toBeUndefined();
    const result = (m: string) => all.methods.find((x) => x.name === m)!.result.schema;
    for (const m of ["register", "login", "login_mfa", "refresh_token"]) {
      expect(result(`authservice.${m}`), m).toEqual({ $ref: "#/components/schemas/AuthResult" });
    }
    expect(schemas["AuthResult"]!["oneOf"]).toEqual([
      { $ref: "#/components/schemas/AuthSession" },
      { $ref: "#/components/schemas/MfaChallengeResult" },
    ]);
  });

  test.skipIf(!existsSync(CATALOG))(
    "every operation of the seed catalogue is a method with the tabled params, types and order",
    () => {
      const catalog = JSON.parse(readFileSync(CATALOG, "utf8")) as { services: SeedService[] };
      const byName = new Map(model.methods.map((m) => [m.name, m]));
      let operations = 0;
      for (const service of catalog.services) {
        for (const op of service.operations) {
          operations += 1;
          const name = `${service.service.toLowerCase()}.${op.name}`;
          const method = byName.get(name);
          expect(method, name).toBeDefined();
          const ordered = [...op.params.filter((p) => !p.optional), ...op.params.filter((p) => p.optional)];
          const added = ISSUE_ADDED_PARAMS[name] ?? [];
          const tabled = method!.params.slice(0, method!.params.length - added.length);
          expect(
            method!.params.slice(tabled.length).map((p) => [p.name, p.required]),
            name,
          ).toEqual(added.map((p) => [p, false]));
          const actual = tabled.map((p) => ({ name: p.name, required: p.required, type: typeOf(p.schema) }));
          const wanted = ordered.map((p) => ({ name: p.name, required: !p.optional, type: expectedSchema(p.type) }));
          expect(actual, name).toEqual(wanted);
          for (const p of ordered) {
            const ref = /^\[?([A-Z]\w*)\]?$/.exec(p.type)?.[1];
            if (ref) expect(model.schemas[ref], `${name}: ${p.name} -> ${ref}`).toBeDefined();
          }
        }
      }
      expect(operations).toBe(208);
    },
  );
});
