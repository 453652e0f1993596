import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { checkModel } from "./check.ts";
import { checkDescriptions } from "./descriptions.ts";
import { Diagnostics, pointer } from "./diagnostics.ts";
import { checkExtensions, type SpecFileKind } from "./extensions.ts";
import { lineColumn } from "./locate.ts";
import type { DomainModel, ErrorCodeModel, JsonSchema, RecordModel, ServiceModel, SpecModel } from "./model.ts";
import { kebabCase } from "./naming.ts";
import type { OpenrpcDocument } from "./openrpc-check.ts";
import { buildCrudMethods, buildRecord } from "./records.ts";
import { buildService } from "./services.ts";

export interface SpecFile {
  path: string;
  json: JsonSchema;
}

/** Reads one spec file; its `x-` keys are checked against the table of extensions (extensions.ts) at once. */
function readJson(root: string, path: string, diags: Diagnostics, kind: SpecFileKind = "other"): JsonSchema | null {
  const rel = relative(root, path) || path;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    diags.add("invalid-json", rel, "", `cannot read the file: ${(err as Error).message}`);
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Only a file that does not parse is parsed again, by jsonc-parser, for where and what the error is.
    const syntax = jsonSyntaxError(text);
    const problem = syntax?.problem ?? (err as Error).message;
    diags.add(
      "invalid-json",
      rel,
      "",
      `not valid JSON: ${problem}`,
      syntax ? lineColumn(text, syntax.offset) : undefined,
    );
    return null;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    checkExtensions(value as JsonSchema, kind, rel, diags);
    checkDescriptions(value, rel, diags);
    return value as JsonSchema;
  }
  diags.add("invalid-json", rel, "", "the file must hold a JSON object");
  return null;
}

/** The first syntax error of strict JSON (no comments, no trailing commas), where it is and what it is. */
function jsonSyntaxError(text: string): { offset: number; problem: string } | null {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return null;
  const words = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return { offset: first.offset, problem: words };
}

function listJson(dir: string, suffix = ".json"): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(suffix))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

export interface LoadedSpec {
  model: SpecModel | null;
  diags: Diagnostics;
  /** The spec/services documents as written, for the OpenRPC meta-schema check (see generate.ts). */
  documents: OpenrpcDocument[];
}

/** Reads `spec/` into the model; returns diagnostics instead of throwing for spec problems. */
export function loadSpec(specDir: string): LoadedSpec {
  const documents: OpenrpcDocument[] = [];
  const diags = new Diagnostics();
  const root = join(specDir, "..");
  const rel = (p: string) => relative(root, p);
  const platform = readJson(root, join(specDir, "platform.json"), diags);
  const errors = readJson(root, join(specDir, "errors.json"), diags);
  const enumsFile = readJson(root, join(specDir, "enums.json"), diags);
  if (!platform || !errors || !enumsFile) return { model: null, diags, documents };

  const schemas: Record<string, JsonSchema> = {};
  const schemaFiles: Record<string, string> = {};
  const define = (name: string, schema: JsonSchema, file: string, ptr: string) => {
    if (schemas[name]) {
      diags.add("duplicate-schema-name", file, ptr, `schema "${name}" is already defined in ${schemaFiles[name]}`);
      return;
    }
    schemas[name] = schema;
    schemaFiles[name] = file;
  };

  const enumSchemas = (enumsFile["schemas"] ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(enumSchemas))
    define(name, schema, "spec/enums.json", pointer("schemas", name));

  for (const path of listJson(join(specDir, "schemas"))) {
    const file = readJson(root, path, diags);
    for (const [name, schema] of Object.entries((file?.["schemas"] ?? {}) as Record<string, JsonSchema>)) {
      define(name, schema, rel(path), pointer("schemas", name));
    }
  }

  const recordsRaw: RecordModel[] = [];
  for (const path of listJson(join(specDir, "records"))) {
    const json = readJson(root, path, diags, "record");
    if (!json) continue;
    const record = buildRecord(json, rel(path), diags);
    if (!record) continue;
    define(record.name, record.schema, record.file, "");
    recordsRaw.push(record);
  }

  const context = typeof platform["context"] === "string" ? platform["context"] : "";
  // The context is a URL path segment and the prefix of every MCP tool name.
  if (!/^[a-z][a-z0-9]*$/.test(context)) {
    diags.add("invalid-platform", "spec/platform.json", pointer("context"), "context must be a lower-case word");
  }
  const domainOf = new Map<string, string>();
  const versions = new Map<string, string>();
  const domains: DomainModel[] = [];
  for (const [domain, def] of Object.entries((platform["domains"] ?? {}) as Record<string, JsonSchema>)) {
    const services = (def["services"] ?? {}) as Record<string, string>;
    domains.push({ name: domain, services: Object.keys(services) });
    for (const [svc, version] of Object.entries(services)) {
      domainOf.set(svc, domain);
      versions.set(svc, version);
    }
  }

  const services: ServiceModel[] = [];
  // Service files that could not be read: the services they hold are not reported missing as well.
  const unreadable = new Set<string>();
  for (const path of listJson(join(specDir, "services"), ".openrpc.json")) {
    const json = readJson(root, path, diags, "service");
    if (!json) {
      unreadable.add(basename(path));
      continue;
    }
    documents.push({ file: rel(path), doc: json });
    const service = buildService(json, rel(path), { context, domainOf, versions }, diags);
    if (!service) continue;
    const components = ((json["components"] as JsonSchema | undefined)?.["schemas"] ?? {}) as Record<
      string,
      JsonSchema
    >;
    for (const [name, schema] of Object.entries(components)) {
      define(name, schema, service.file, pointer("components", "schemas", name));
    }
    services.push(service);
  }
  for (const [svc] of versions) {
    if (unreadable.has(`${kebabCase(svc)}.openrpc.json`)) continue;
    if (!services.some((s) => s.name === svc)) {
      diags.add(
        "service-file-missing",
        "spec/platform.json",
        pointer("domains", domainOf.get(svc) ?? "", "services", svc),
        `no spec/services file declares ${svc}`,
      );
    }
  }

  const errorCodes: ErrorCodeModel[] = Object.entries((errors["codes"] ?? {}) as Record<string, JsonSchema>).map(
    ([name, def]) => ({
      name,
      code: def["code"] as number,
      message: def["message"] as string,
      variants: (def["variants"] ?? []) as string[],
    }),
  );
  const errorTypes = (errors["types"] ?? []) as string[];

  const records = recordsRaw.sort((a, b) => a.name.localeCompare(b.name));
  const crudMethods = buildCrudMethods(records, schemas, context, diags);
  const sortedServices = services.sort((a, b) => a.name.localeCompare(b.name));
  const model: SpecModel = {
    context,
    schemaVersion: platform["schemaVersion"] as string,
    domains,
    services: sortedServices,
    records,
    schemas,
    schemaFiles,
    enums: Object.keys(enumSchemas),
    errorCodes,
    errorTypes,
    methods: [...sortedServices.flatMap((s) => s.methods), ...crudMethods],
  };
  checkModel(model, diags);
  return { model, diags, documents };
}
