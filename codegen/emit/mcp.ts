import { paramsSchema, stableJson, wireSchemas } from "../derive.ts";
import type { JsonSchema, MethodModel, SpecModel } from "../model.ts";
import { dereference, stripExtensions } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

/** What a call that needs the owner's approval answers instead of the result. */
export const PENDING_APPROVAL_SCHEMA: JsonSchema = {
  type: "object",
  title: "PendingApproval",
  properties: {
    status: { type: "string", const: "pending_approval" },
    approval_id: { type: "string" },
    reason: { type: "string" },
    expires_at: { type: "string", format: "date-time" },
  },
  required: ["status", "approval_id", "reason", "expires_at"],
  additionalProperties: false,
};

function title(m: MethodModel): string {
  if (m.summary) return m.summary.charAt(0).toUpperCase() + m.summary.slice(1);
  return m.name;
}

/**
 * A param the server fills from the caller when it is omitted (a user or partner binding) is optional for an agent,
 * and says so: an agent following the schema must not have to guess its own user id.
 */
function callerFilledOptional(input: JsonSchema, m: MethodModel): void {
  const binding = m.callerBinding;
  if (!binding || binding.kind === "resident") return;
  const properties = input["properties"] as Record<string, JsonSchema>;
  const param = properties[binding.param];
  if (!param) return;
  input["required"] = ((input["required"] ?? []) as string[]).filter((name) => name !== binding.param);
  const who = binding.kind === "user" ? "the API key's owner" : "the reseller key's partner";
  properties[binding.param] = {
    ...param,
    description: `You, when omitted: filled from ${who}. Naming anyone else is refused.`,
  };
}

/**
 * The params a generic record tool takes as JSON object text on the wire (API.md: `find`'s `query`, `set`'s
 * `data`), which an agent gives as objects: the tool's schema says object, and the MCP executor writes the text
 * (src/mcp/execute.ts `jsonTextArgs`).
 */
const JSON_TEXT_PARAMS: Readonly<Record<string, string>> = { find: "query", set: "data" };

const JSON_TEXT_SCHEMAS: Record<string, JsonSchema> = {
  query: {
    type: "object",
    description:
      'Equality conditions on indexed fields, ANDed: `{"field": value}` (a string, number, boolean or null each).',
    additionalProperties: { type: ["string", "number", "boolean", "null"] },
  },
  data: {
    type: "object",
    description: "The record's writable fields; with `sid` it updates that record, without it creates one.",
  },
};

function structuredArgs(input: JsonSchema, m: MethodModel): void {
  const param = m.kind === "crud" ? JSON_TEXT_PARAMS[m.op] : undefined;
  const schema = param ? JSON_TEXT_SCHEMAS[param] : undefined;
  if (!param || !schema) return;
  (input["properties"] as Record<string, JsonSchema>)[param] = schema;
}

function tool(m: MethodModel, schemas: Record<string, JsonSchema>): JsonSchema {
  const input = stripExtensions(dereference(paramsSchema(m), schemas)) as JsonSchema;
  delete input["title"];
  callerFilledOptional(input, m);
  structuredArgs(input, m);
  const result = stripExtensions(dereference({ $ref: `#/components/schemas/${m.result}` }, schemas)) as JsonSchema;
  return {
    name: m.mcp.name,
    title: title(m),
    description: [m.summary, m.description].filter(Boolean).join("\n\n") || m.name,
    method: m.name,
    inputSchema: input,
    outputSchema: { type: "object", anyOf: [result, PENDING_APPROVAL_SCHEMA] },
    annotations: {
      title: title(m),
      readOnlyHint: m.mcp.readOnly,
      destructiveHint: m.mcp.destructive,
      idempotentHint: m.mcp.idempotent,
      openWorldHint: false,
    },
  };
}

/** The MCP tool manifest: one tool per operation, schemas fully dereferenced. */
export function emitMcp(model: SpecModel): GeneratedFile[] {
  const schemas = wireSchemas(model);
  const tools = model.methods.map((m) => tool(m, schemas));
  return [{ path: "generated/mcp-tools.json", content: stableJson(tools) }];
}
