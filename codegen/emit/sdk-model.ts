import type { JsonSchema } from "../model.ts";

/**
 * What the client generator needs of an API, read from an OpenRPC document: this repository's served document
 * (built from the codegen model) or any other (`npm run sdk -- --from`). Extensions this platform adds are used
 * when present and degrade when missing: no `errors[].data.variant` nor `x-errors` -> the variant is `string`;
 * no `x-mcp.readOnly` -> no method is retried; no `x-caller-binding` -> every required param stays required.
 */
export interface SdkParam {
  name: string;
  required: boolean;
  description: string | null;
  schema: JsonSchema;
}

export interface SdkMethod {
  /** Wire name: `residentservice.create`. */
  name: string;
  /** Namespace on the client: the part before the first dot (`_` for a name without one). */
  namespace: string;
  /** Property in the namespace: the rest of the name. */
  op: string;
  /** A name for the method's types: the first tag when it is an identifier, else the namespace. */
  owner: string;
  summary: string;
  description: string;
  params: SdkParam[];
  /** `{ $ref }` to a component, or an inline schema. */
  result: JsonSchema;
  /** Declared error variants; null when the document declares none (typed as `string`). */
  variants: string[] | null;
  readOnly: boolean;
  deprecated: boolean;
  /** How the list pages, when it is one (the client's `<op>_all` iterator follows it); null otherwise. */
  pagination: Pagination | null;
}

/**
 * The three list styles: `cursor` (a `cursor` param, `next_cursor` in the result), `page` (`page`, and `total` or
 * `page_size` in the result) and `offset` (`offset` and `limit`). `items` names the result's array.
 */
export interface Pagination {
  style: "cursor" | "page" | "offset";
  items: string;
}

export interface SdkModel {
  title: string;
  version: string;
  description: string;
  serverUrl: string | null;
  methods: SdkMethod[];
  schemas: Record<string, JsonSchema>;
  /** The method that trades a refresh token for a session, and its token param. */
  refresh: { method: string; param: string } | null;
  /** What the document lacked (the generator says so; nothing fails). */
  notes: string[];
}

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Reads a `$ref` to `#/components/contentDescriptors/...` or `#/components/errors/...` in place. */
function resolveComponent(doc: JsonSchema, value: unknown): unknown {
  if (!isObject(value) || typeof value["$ref"] !== "string") return value;
  const parts = value["$ref"].replace(/^#\//, "").split("/");
  let target: unknown = doc;
  for (const part of parts) target = isObject(target) ? target[part] : undefined;
  return target ?? value;
}

/**
 * Variants from `errors[].data` (the served documents) and from `x-errors` (the spec's own files). An empty
 * `errors` list declares none when the document names variants elsewhere (`convention`).
 */
function variantsOf(doc: JsonSchema, method: JsonSchema, convention: boolean): string[] | null {
  const found = new Set<string>();
  let declared = convention && Array.isArray(method["errors"]);
  const errors = Array.isArray(method["errors"]) ? method["errors"] : [];
  for (const raw of errors) {
    const error = resolveComponent(doc, raw);
    const variant = isObject(error) && isObject(error["data"]) ? error["data"]["variant"] : undefined;
    if (typeof variant === "string") {
      found.add(variant);
      declared = true;
    }
  }
  const xErrors = method["x-errors"];
  if (isObject(xErrors)) {
    declared = true;
    for (const list of Object.values(xErrors)) {
      if (Array.isArray(list)) for (const v of list) if (typeof v === "string") found.add(v);
    }
  }
  return declared ? [...found].sort() : null;
}

/** A caller-bound user or partner param is filled by the server when omitted (API.md): optional for a client. */
function callerFilled(method: JsonSchema): string | null {
  const binding = method["x-caller-binding"];
  if (!isObject(binding) || (binding["kind"] !== "user" && binding["kind"] !== "partner")) return null;
  return typeof binding["param"] === "string" ? binding["param"] : null;
}

function readOnlyOf(method: JsonSchema): boolean {
  const mcp = method["x-mcp"];
  if (isObject(mcp) && typeof mcp["readOnly"] === "boolean") return mcp["readOnly"];
  return method["x-read-only"] === true;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The result's object schema (a `$ref` to a component followed once). */
function objectSchema(schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  const ref = typeof schema["$ref"] === "string" ? schema["$ref"] : null;
  const target = ref ? schemas[ref.slice(ref.lastIndexOf("/") + 1)] : schema;
  return isObject(target) ? target : {};
}

/** A list's style, read from its params and its result's properties; null for a method that is no list. */
export function paginationOf(
  params: SdkParam[],
  result: JsonSchema,
  schemas: Record<string, JsonSchema>,
): Pagination | null {
  const props = objectSchema(result, schemas)["properties"];
  if (!isObject(props)) return null;
  const has = (name: string) => params.some((p) => p.name === name);
  const arrays = Object.entries(props).filter(([, v]) => isObject(v) && v["type"] === "array");
  const items = (arrays.find(([k]) => k === "items") ?? (arrays.length === 1 ? arrays[0] : undefined))?.[0];
  if (!items) return null;
  if (has("cursor") && "next_cursor" in props) return { style: "cursor", items };
  if (has("page") && ("total" in props || "page_size" in props)) return { style: "page", items };
  if (has("offset") && has("limit")) return { style: "offset", items };
  return null;
}

function methodOf(
  doc: JsonSchema,
  raw: unknown,
  notes: string[],
  convention: boolean,
  schemas: Record<string, JsonSchema>,
): SdkMethod | null {
  const m = resolveComponent(doc, raw);
  if (!isObject(m) || typeof m["name"] !== "string" || m["name"] === "") return null;
  const name = m["name"];
  if (name.startsWith("rpc.")) return null; // JSON-RPC's reserved names (rpc.discover): not API methods
  const dot = name.indexOf(".");
  const filled = callerFilled(m);
  const params: SdkParam[] = [];
  for (const rawParam of Array.isArray(m["params"]) ? m["params"] : []) {
    const p = resolveComponent(doc, rawParam);
    if (!isObject(p) || typeof p["name"] !== "string") continue;
    params.push({
      name: p["name"],
      required: p["required"] === true && p["name"] !== filled,
      description: str(p["description"]) || null,
      schema: isObject(p["schema"]) ? p["schema"] : {},
    });
  }
  const result = resolveComponent(doc, m["result"]);
  if (!isObject(result)) notes.push(`${name}: no result descriptor; typed as unknown`);
  const tags = Array.isArray(m["tags"]) ? m["tags"] : [];
  const tag = isObject(tags[0]) ? str(tags[0]["name"]) : "";
  const namespace = dot > 0 ? name.slice(0, dot) : "_";
  const resultSchema = isObject(result) && isObject(result["schema"]) ? result["schema"] : {};
  return {
    name,
    namespace,
    op: dot > 0 ? name.slice(dot + 1) : name,
    owner: IDENTIFIER.test(tag) ? tag : namespace,
    summary: str(m["summary"]),
    description: str(m["description"]),
    params,
    result: resultSchema,
    variants: variantsOf(doc, m, convention),
    readOnly: readOnlyOf(m),
    deprecated: m["deprecated"] === true,
    pagination: paginationOf(params, resultSchema, schemas),
  };
}

/** `authservice.refresh_token`-like: an op named refresh or refresh_token taking one required string. */
function refreshMethod(methods: SdkMethod[]): SdkModel["refresh"] {
  const candidates = methods.filter(
    (m) => /^refresh(_token)?$/.test(m.op) && m.params.filter((p) => p.required).length === 1,
  );
  const best = candidates.find((m) => m.namespace.includes("auth")) ?? candidates[0];
  const param = best?.params.find((p) => p.required);
  return best && param ? { method: best.name, param: param.name } : null;
}

/** An OpenRPC document -> the client model; throws only when it is not an OpenRPC document at all. */
export function sdkModelFromOpenrpc(doc: unknown): SdkModel {
  if (!isObject(doc) || typeof doc["openrpc"] !== "string" || !Array.isArray(doc["methods"])) {
    throw new Error("not an OpenRPC document: it needs an `openrpc` version and a `methods` array");
  }
  const notes: string[] = [];
  const info = isObject(doc["info"]) ? doc["info"] : {};
  const components = isObject(doc["components"]) ? doc["components"] : {};
  const schemas = isObject(components["schemas"]) ? (components["schemas"] as Record<string, JsonSchema>) : {};
  const convention = doc["methods"].some((raw) => {
    const m = resolveComponent(doc, raw);
    return isObject(m) && (variantsOf(doc, m, false) ?? []).length > 0;
  });
  const methods = doc["methods"].flatMap((raw) => methodOf(doc, raw, notes, convention, schemas) ?? []);
  const withoutVariants = methods.filter((m) => m.variants === null).length;
  if (withoutVariants > 0) notes.push(`${withoutVariants} method(s) declare no error variants: typed as string`);
  if (!methods.some((m) => m.readOnly)) notes.push("no method is marked read-only (x-mcp.readOnly): none is retried");
  const refresh = refreshMethod(methods);
  if (!refresh) notes.push("no refresh method (…refresh_token): an expired session is not refreshed");
  const servers = Array.isArray(doc["servers"]) ? doc["servers"] : [];
  const server = isObject(servers[0]) ? str(servers[0]["url"]) : "";
  return {
    title: str(info["title"]) || "api",
    version: str(info["version"]) || "0.0.0",
    description: str(info["description"]),
    serverUrl: server || null,
    methods,
    schemas,
    refresh,
    notes,
  };
}
