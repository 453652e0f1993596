import { Diagnostics, pointer } from "../../codegen/diagnostics.ts";
import { openrpcDocument } from "../../codegen/emit/openrpc.ts";
import { loadSpec } from "../../codegen/load.ts";
import type { JsonSchema, SpecModel } from "../../codegen/model.ts";
import { refName } from "../../codegen/naming.ts";
import { forEachRef } from "../../codegen/schema-walk.ts";

/**
 * What `spec diff` compares: the wire contract as a client sees it, the same whether it was read from a served
 * OpenRPC document or built from a `spec/` tree through the codegen loader (which builds the `all` document).
 */
export interface Contract {
  methods: Map<string, MethodContract>;
  /** The named schemas of `components.schemas` (records as their public view, enums, results, shared types). */
  schemas: Record<string, JsonSchema>;
}

export interface ParamContract {
  name: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface ErrorContract {
  /** `<type>.<variant>` (the `x-errors` entry), or the error's message when it carries no `data`. */
  key: string;
  code: number | null;
}

export interface MethodContract {
  name: string;
  summary: string;
  description: string;
  params: ParamContract[];
  result: JsonSchema;
  errors: ErrorContract[];
  /** `x-auth`; `user` when absent, as in spec/. */
  auth: string;
  internal: boolean;
  aliases: string[];
  /** The MCP tool name (`x-mcp.name`), or null for a document without MCP tools. */
  tool: string | null;
  hints: Record<string, unknown>;
}

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function readMethod(m: unknown, i: number, file: string, diags: Diagnostics): MethodContract | null {
  const at = pointer("methods", i);
  if (!isObject(m) || typeof m["name"] !== "string" || m["name"] === "") {
    diags.add("invalid-method", file, isObject(m) ? `${at}/name` : at, "a method needs a string name");
    return null;
  }
  const rawParams = m["params"] ?? [];
  if (!Array.isArray(rawParams)) {
    diags.add("invalid-params", file, `${at}/params`, "params must be an array");
    return null;
  }
  const params: ParamContract[] = [];
  rawParams.forEach((p, j) => {
    if (!isObject(p) || typeof p["name"] !== "string" || !isObject(p["schema"])) {
      diags.add("invalid-param", file, `${at}/params/${j}`, "a param needs a string name and a schema object");
      return;
    }
    params.push({
      name: p["name"],
      required: p["required"] === true,
      description: str(p["description"]),
      schema: p["schema"],
    });
  });
  const result = m["result"];
  if (!isObject(result) || !isObject(result["schema"])) {
    diags.add("invalid-result", file, `${at}/result`, "result must be an object with a schema object");
    return null;
  }
  const errors: ErrorContract[] = [];
  const rawErrors = m["errors"] ?? [];
  if (!Array.isArray(rawErrors)) diags.add("invalid-errors", file, `${at}/errors`, "errors must be an array");
  else
    for (const e of rawErrors) {
      if (!isObject(e)) continue;
      const data = isObject(e["data"]) ? e["data"] : {};
      const key = data["type"] && data["variant"] ? `${str(data["type"])}.${str(data["variant"])}` : str(e["message"]);
      errors.push({ key, code: typeof e["code"] === "number" ? e["code"] : null });
    }
  const mcp = isObject(m["x-mcp"]) ? m["x-mcp"] : {};
  const { name: _tool, ...hints } = mcp;
  return {
    name: m["name"],
    summary: str(m["summary"]),
    description: str(m["description"]),
    params,
    result: result["schema"],
    errors,
    auth: str(m["x-auth"]) || "user",
    internal: m["x-internal"] === true,
    aliases: Array.isArray(m["x-alias"]) ? m["x-alias"].map(str) : [],
    tool: str(mcp["name"]) || null,
    hints,
  };
}

/** Reads a served OpenRPC document; every problem is a diagnostic with `file` and a JSON pointer into it. */
export function contractFromOpenrpc(doc: unknown, file: string, diags: Diagnostics): Contract | null {
  if (!isObject(doc)) {
    diags.add("invalid-document", file, "", "an OpenRPC document must be a JSON object");
    return null;
  }
  if (typeof doc["openrpc"] !== "string")
    diags.add("invalid-document", file, "/openrpc", 'not an OpenRPC document: no "openrpc" version string');
  if (!Array.isArray(doc["methods"])) {
    diags.add("invalid-document", file, "/methods", "methods must be an array");
    return null;
  }
  const components = doc["components"] ?? {};
  const schemas = isObject(components) && isObject(components["schemas"]) ? components["schemas"] : {};
  if (!isObject(components) || (components["schemas"] !== undefined && !isObject(components["schemas"])))
    diags.add("invalid-document", file, "/components/schemas", "components.schemas must be an object");
  const methods = new Map<string, MethodContract>();
  doc["methods"].forEach((m, i) => {
    const method = readMethod(m, i, file, diags);
    if (!method) return;
    if (methods.has(method.name))
      diags.add("duplicate-method", file, pointer("methods", i, "name"), `method ${method.name} is listed twice`);
    methods.set(method.name, method);
  });
  // Every reference must name a schema of the document: the diff follows them.
  forEachRef({ methods: doc["methods"], components: { schemas } }, (ref, ptr) => {
    const name = refName(ref);
    if (!name || !isObject(schemas[name]))
      diags.add("unresolved-ref", file, ptr, `$ref "${ref}" does not name a schema of components.schemas`);
  });
  return diags.items.length > 0 ? null : { methods, schemas: schemas as Record<string, JsonSchema> };
}

/** The `all` document codegen serves, built from a loaded spec model (every method, the served vocabulary). */
export function servedDocument(model: SpecModel): JsonSchema {
  const vocabulary = [...model.records.filter((r) => r.served).map((r) => r.name), ...model.enums];
  return openrpcDocument(
    model,
    { title: model.context, url: "http://localhost:8080/rpc" },
    model.methods,
    model.services.map((s) => s.name),
    vocabulary,
  );
}

/**
 * Reads a `spec/` tree with the codegen loader. Diagnostics name files as `<label>/<path below the spec's parent>`
 * (`spec/services/x.openrpc.json`), with the loader's JSON pointers.
 */
export function contractFromSpecDir(
  specDir: string,
  fileName: (file: string) => string,
  diags: Diagnostics,
): Contract | null {
  const loaded = loadSpec(specDir);
  for (const d of loaded.diags.items) diags.add(d.code, fileName(d.file), d.pointer, d.message);
  if (!loaded.model || loaded.diags.items.length > 0) return null;
  return contractFromOpenrpc(servedDocument(loaded.model), fileName("spec (as served)"), diags);
}

export { Diagnostics };
