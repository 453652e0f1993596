import { type Diagnostics, pointer } from "./diagnostics.ts";
import { didYouMean } from "./extensions.ts";
import type { JsonSchema, MethodModel, SpecModel } from "./model.ts";
import { refName } from "./naming.ts";
import { nonNull } from "./records.ts";
import { forEachRef } from "./schema-walk.ts";
import { checkTargets } from "./targets.ts";
import { checkVisibility } from "./visibility.ts";

const MAX_TOOL_NAME = 64;

function isMappable(schema: JsonSchema): boolean {
  const { schema: inner } = nonNull(schema);
  if (typeof inner["$ref"] === "string" || inner["enum"] || inner["const"] !== undefined) return true;
  if (Array.isArray(inner["oneOf"]) || Array.isArray(inner["anyOf"])) return true;
  const type = inner["type"];
  const types = Array.isArray(type) ? type : [type];
  return (
    types.length > 0 &&
    types.every((t) => ["string", "integer", "number", "boolean", "object", "array"].includes(t as string))
  );
}

function isObjectSchema(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>, depth = 0): boolean {
  if (!schema || depth > 8) return false;
  if (typeof schema["$ref"] === "string")
    return isObjectSchema(schemas[refName(schema["$ref"]) ?? ""], schemas, depth + 1);
  if (schema["type"] === "object") return true;
  const alternatives = (schema["oneOf"] ?? schema["anyOf"]) as JsonSchema[] | undefined;
  return (
    Array.isArray(alternatives) &&
    alternatives.length > 0 &&
    alternatives.every((s) => isObjectSchema(s, schemas, depth + 1))
  );
}

function checkMethod(m: MethodModel, model: SpecModel, diags: Diagnostics): void {
  const { file } = m;
  const seen = new Set<string>();
  let optionalSeen = false;
  m.params.forEach((p, i) => {
    const ptr = `${m.pointer}${pointer("params", i)}`;
    if (seen.has(p.name)) diags.add("duplicate-param-name", file, ptr, `param "${p.name}" appears twice in ${m.name}`);
    seen.add(p.name);
    if (!p.required) optionalSeen = true;
    else if (optionalSeen) {
      diags.add(
        "optional-param-before-required",
        file,
        ptr,
        `required param "${p.name}" of ${m.name} follows an optional one`,
      );
    }
    if (!isMappable(p.schema))
      diags.add("unmappable-type", file, `${ptr}/schema`, `cannot map the schema of param "${p.name}" to a type`);
  });
  if (m.result && !model.schemas[m.result]) {
    diags.add(
      "unknown-ref",
      file,
      `${m.pointer}/result/schema/$ref`,
      `result ${m.result} of ${m.name} is not defined${didYouMean(m.result, Object.keys(model.schemas))}`,
    );
  } else if (m.result && !isObjectSchema(model.schemas[m.result], model.schemas)) {
    diags.add(
      "result-not-object",
      file,
      `${m.pointer}/result/schema`,
      `result ${m.result} of ${m.name} is not an object`,
    );
  }
  const paramNamed = (name: string | null, what: string, key: string) => {
    if (name && !seen.has(name))
      diags.add("unknown-param", file, `${m.pointer}/${key}`, `${what} names "${name}", which ${m.name} does not take`);
  };
  paramNamed(m.callerBinding?.param ?? null, "x-caller-binding", "x-caller-binding");
  paramNamed(m.password, "x-password", "x-password");
  paramNamed(m.audit?.targetParam ?? null, "x-audit.targetParam", "x-audit/targetParam");
  paramNamed(m.mcp.amountParam, "x-mcp.amountParam", "x-mcp/amountParam");
  if (m.spends && m.mcp.readOnly) {
    // A read-only method runs without a transaction: a debit it made could not be rolled back over a limit.
    diags.add("spends-read-only", file, `${m.pointer}/x-spends`, `${m.name} moves money, so it cannot be readOnly`);
  }
  const auditActions = (model.schemas["AuditAction"]?.["enum"] ?? []) as string[];
  if (m.audit?.action && auditActions.length > 0 && !auditActions.includes(m.audit.action)) {
    diags.add(
      "unknown-audit-action",
      file,
      `${m.pointer}/x-audit`,
      `"${m.audit.action}" is not an AuditAction${didYouMean(m.audit.action, auditActions)}`,
    );
  }
  const targetTypes = (model.schemas["AuditTargetType"]?.["enum"] ?? []) as string[];
  const targetType = m.audit?.targetType;
  if (targetType && targetTypes.length > 0 && !targetTypes.includes(targetType)) {
    diags.add(
      "unknown-audit-target-type",
      file,
      `${m.pointer}/x-audit/targetType`,
      `"${targetType}" is not an AuditTargetType${didYouMean(targetType, targetTypes)}`,
    );
  }
  const variants = new Set(model.errorCodes.flatMap((c) => c.variants));
  for (const [type, list] of Object.entries(m.errors)) {
    if (type !== "RecordError" && !model.errorTypes.includes(type)) {
      diags.add(
        "unknown-error-type",
        file,
        `${m.pointer}${pointer("x-errors", type)}`,
        `error type ${type} is not listed in spec/errors.json`,
      );
    }
    for (const [i, variant] of list.entries()) {
      if (!variants.has(variant)) {
        diags.add(
          "unknown-error-variant",
          file,
          `${m.pointer}${pointer("x-errors", type, i)}`,
          `variant ${variant} is not declared in spec/errors.json`,
        );
      }
    }
  }
  if (m.mcp.name.length > MAX_TOOL_NAME) {
    diags.add(
      "mcp-name-too-long",
      file,
      m.kind === "crud" ? "/title" : `${m.pointer}/x-mcp`,
      `tool name ${m.mcp.name} has ${m.mcp.name.length} characters (max ${MAX_TOOL_NAME}); declare a shorter x-mcp.name`,
    );
  }
}

export function checkModel(model: SpecModel, diags: Diagnostics): void {
  const methodNames = new Map<string, MethodModel>();
  const toolNames = new Map<string, MethodModel>();
  for (const m of model.methods) {
    // A CRUD method's name and tool name come from the record's title.
    const namePtr = m.kind === "crud" ? "/title" : `${m.pointer}/name`;
    for (const name of [m.name, ...m.aliases]) {
      const prior = methodNames.get(name);
      if (prior) diags.add("duplicate-method-name", m.file, namePtr, `method ${name} is also defined in ${prior.file}`);
      methodNames.set(name, m);
    }
    const priorTool = toolNames.get(m.mcp.name);
    if (priorTool) {
      const toolPtr = m.kind === "crud" ? "/title" : `${m.pointer}/x-mcp`;
      diags.add("duplicate-tool-name", m.file, toolPtr, `tool name ${m.mcp.name} is also used by ${priorTool.name}`);
    }
    toolNames.set(m.mcp.name, m);
    checkMethod(m, model, diags);
    m.params.forEach((p, i) => {
      checkRefs(p.schema, m.file, `${m.pointer}${pointer("params", i, "schema")}`, model, diags);
    });
  }
  const domains = new Set(model.domains.map((d) => d.name));
  for (const record of model.records) {
    if (!domains.has(record.domain)) {
      diags.add(
        "unknown-domain",
        record.file,
        pointer("x-domain"),
        `x-domain "${record.domain}" is not a domain of spec/platform.json; its CRUD methods would have no endpoint${didYouMean(record.domain, [...domains])}`,
      );
    }
  }
  checkTargets(model, diags);
  checkVisibility(model, diags);
  for (const [name, schema] of Object.entries(model.schemas)) {
    checkRefs(schema, model.schemaFiles[name] ?? "spec", "", model, diags);
    // Derived schemas (a record's public view) have no file of their own: their source is checked.
    const file = model.schemaFiles[name];
    if (file) checkSecrets(schema, file, "", diags);
  }
}

/** An `x-secret: true` property is answered as null (codegen/secrets.ts): its schema must admit null. */
function checkSecrets(schema: unknown, file: string, ptr: string, diags: Diagnostics): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => {
      checkSecrets(item, file, `${ptr}/${i}`, diags);
    });
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  if (node["x-secret"] === true && !admitsNull(node)) {
    diags.add("secret-not-nullable", file, ptr, "an x-secret property is answered as null: its type must admit null");
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== "default" && key !== "examples") checkSecrets(value, file, `${ptr}${pointer(key)}`, diags);
  }
}

function admitsNull(schema: JsonSchema): boolean {
  const type = schema["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  const branches = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  return Array.isArray(branches) && branches.some(admitsNull);
}

function checkRefs(schema: unknown, file: string, base: string, model: SpecModel, diags: Diagnostics): void {
  forEachRef(schema, (ref, ptr) => {
    const name = refName(ref);
    if (!name || !model.schemas[name]) {
      const hint = name ? didYouMean(name, Object.keys(model.schemas)) : "";
      diags.add("unknown-ref", file, `${base}${ptr}`, `$ref "${ref}" points to nothing${hint}`);
    }
  });
}
