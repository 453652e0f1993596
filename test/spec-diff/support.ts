import { Diagnostics } from "../../codegen/diagnostics.ts";
import type { Change } from "../../tools/spec-diff/change.ts";
import { type Contract, contractFromOpenrpc } from "../../tools/spec-diff/contract.ts";
import { diffContracts } from "../../tools/spec-diff/diff.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A small served OpenRPC document: two methods, a params record, a result, a param enum and a result enum. */
export function baseDocument(): any {
  return {
    openrpc: "1.3.2",
    info: { title: "mini", version: "1.0" },
    methods: [
      {
        name: "residentservice.create",
        summary: "Create a resident",
        description: "Creates a resident for the caller.",
        params: [
          { name: "user_id", required: true, schema: { type: "string" } },
          { name: "data", required: true, schema: ref("ResidentInput") },
          { name: "kind", required: false, schema: ref("ResidentKind") },
          { name: "note", required: false, schema: { type: ["string", "null"], maxLength: 200 } },
          { name: "count", required: false, schema: { type: "integer" } },
        ],
        result: { name: "result", schema: ref("ResidentResult") },
        errors: [
          {
            code: -32006,
            message: "ResidentError.InvalidInput",
            data: { type: "ResidentError", variant: "InvalidInput" },
          },
        ],
        "x-auth": "user",
        "x-mcp": { name: "fz_residentservice_create", readOnly: false, destructive: false, idempotent: false },
        "x-alias": ["digitalresidentservice.create"],
      },
      {
        name: "residentservice.get",
        params: [{ name: "resident_id", required: true, schema: { type: "string" } }],
        result: { name: "result", schema: ref("ResidentResult") },
        errors: [],
        "x-auth": "user",
        "x-mcp": { name: "fz_residentservice_get", readOnly: true, destructive: false, idempotent: true },
      },
    ],
    components: {
      schemas: {
        ResidentInput: {
          type: "object",
          properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
          required: ["name"],
          additionalProperties: true,
        },
        ResidentKind: { type: "string", enum: ["personal", "business"] },
        ResidentStatus: { type: "string", enum: ["active", "suspended"] },
        ResidentResult: {
          type: "object",
          description: "A resident.",
          properties: {
            resident_id: { type: "string" },
            status: ref("ResidentStatus"),
            nickname: { type: ["string", "null"] },
            balance: { type: "number" },
          },
          required: ["resident_id", "status", "nickname", "balance"],
          additionalProperties: false,
        },
      },
    },
  };
}

export function contractOf(doc: unknown): Contract {
  const diags = new Diagnostics();
  const contract = contractFromOpenrpc(doc, "doc.json", diags);
  if (!contract) throw new Error(diags.items.map((d) => `${d.pointer}: ${d.message}`).join("\n"));
  return contract;
}

/** The changes between the base document (after `before`, when given) and the same after `edit`. */
export function diffEdit(edit: (doc: any) => void, before: (doc: any) => void = () => {}): Change[] {
  const old = baseDocument();
  before(old);
  const next = structuredClone(old);
  edit(next);
  return diffContracts(contractOf(old), contractOf(next));
}
