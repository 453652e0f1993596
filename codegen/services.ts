import { type Diagnostics, pointer } from "./diagnostics.ts";
import { CALLER_BINDING_KINDS, didYouMean } from "./extensions.ts";
import type {
  AuditPolicy,
  AuthMode,
  CallerBinding,
  JsonSchema,
  McpPolicy,
  MethodModel,
  ParamModel,
  ServiceModel,
} from "./model.ts";
import { camelCase, refName } from "./naming.ts";
import { parseActsAs, parseTarget } from "./targets.ts";
import { parseVisibility } from "./visibility.ts";

const AUTH_MODES = ["anonymous", "user", "session", "admin", "partner", "webhook"];

interface PlatformIndex {
  /** platform.json's `context`: the prefix of default MCP tool names. */
  context: string;
  domainOf: Map<string, string>;
  versions: Map<string, string>;
}

function str(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

/**
 * `x-auth` is required: no default, a missing or unknown mode is a diagnostic. The mode returned then is `admin`
 * (the strictest), never used since the diagnostic stops codegen.
 */
function parseAuth(value: unknown, file: string, ptr: string, diags: Diagnostics): AuthMode {
  if (value === undefined) {
    diags.add("missing-auth", file, ptr, `x-auth is required: one of ${AUTH_MODES.join(", ")}`);
    return "admin";
  }
  if (typeof value === "string" && AUTH_MODES.includes(value)) return value as AuthMode;
  const shown = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  const hint =
    typeof value === "string"
      ? value.startsWith("company:")
        ? ` (a company role is x-target's "role")`
        : didYouMean(value, AUTH_MODES)
      : "";
  diags.add("invalid-auth", file, ptr, `x-auth ${shown} is not one of ${AUTH_MODES.join(", ")}${hint}`);
  return "admin";
}

/** `x-caller-binding` as written; its shape and kind are checked with the other extensions (extensions.ts). */
function parseBinding(value: unknown): CallerBinding | null {
  if (typeof value === "string") return { param: value, kind: "user", adminMayOverride: false };
  if (value && typeof value === "object") {
    const v = value as JsonSchema;
    const kind = CALLER_BINDING_KINDS.find((k) => k === v["kind"]) ?? "user";
    return {
      param: str(v["param"]),
      kind,
      adminMayOverride: v["adminMayOverride"] === true,
    };
  }
  return null;
}

function parseAudit(value: unknown): AuditPolicy | null {
  if (typeof value === "string") return { action: value, targetType: null, targetParam: null };
  if (value && typeof value === "object") {
    const v = value as JsonSchema;
    return {
      action: str(v["action"]),
      targetType: str(v["targetType"]) || null,
      targetParam: str(v["targetParam"]) || null,
    };
  }
  return null;
}

/** `x-spends`: a boolean, default false (its shape is checked with the other extensions, extensions.ts). */
const parseSpends = (value: unknown): boolean => value === true;

function parseMcp(value: unknown, defaultName: string): McpPolicy {
  const v = (value && typeof value === "object" ? value : {}) as JsonSchema;
  return {
    name: str(v["name"], defaultName),
    readOnly: v["readOnly"] === true,
    destructive: v["destructive"] === true,
    idempotent: v["idempotent"] === true,
    amountParam: str(v["amountParam"]) || null,
    agentTool: v["agentTool"] !== false,
    listing: v["agentTool"] === false ? "never" : "always",
  };
}

/** `x-errors` as written, keeping only lists of strings (extensions.ts reports any other shape). */
function errorMap(value: unknown): Record<string, string[]> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).map(([type, list]) => [
      type,
      Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : [],
    ]),
  );
}

export function buildService(
  json: JsonSchema,
  file: string,
  platform: PlatformIndex,
  diags: Diagnostics,
): ServiceModel | null {
  const info = (json["info"] ?? {}) as JsonSchema;
  const name = str(info["title"]);
  if (!/^[A-Z][A-Za-z0-9]*Service$/.test(name)) {
    diags.add(
      "service-title-invalid",
      file,
      pointer("info", "title"),
      "info.title must be the service name, e.g. ResidentService",
    );
    return null;
  }
  const lower = name.toLowerCase();
  const domain = platform.domainOf.get(name);
  if (!domain)
    diags.add("service-not-in-platform", file, pointer("info", "title"), `${name} is not listed in spec/platform.json`);
  const declaredDomain = str(json["x-domain"]);
  if (domain && declaredDomain && declaredDomain !== domain) {
    diags.add(
      "service-domain-mismatch",
      file,
      pointer("x-domain"),
      `x-domain "${declaredDomain}" but platform.json puts ${name} in "${domain}"`,
    );
  }
  const version = str(info["version"]);
  if (platform.versions.has(name) && platform.versions.get(name) !== version) {
    diags.add(
      "service-version-mismatch",
      file,
      pointer("info", "version"),
      `version ${version} differs from platform.json's ${platform.versions.get(name)}`,
    );
  }
  const alias = str(json["x-alias"]) || null;
  const service: ServiceModel = {
    name,
    lower,
    key: camelCase(name.charAt(0).toLowerCase() + name.slice(1)),
    file,
    version,
    domain: domain ?? "platform",
    description: str(info["description"]),
    errorTypes: Array.isArray(json["x-error-types"])
      ? json["x-error-types"].filter((t): t is string => typeof t === "string")
      : [],
    alias,
    methods: [],
  };
  const methods = (json["methods"] ?? []) as JsonSchema[];
  methods.forEach((m, i) => {
    const ptr = pointer("methods", i);
    const methodName = str(m["name"]);
    const prefix = `${lower}.`;
    if (!methodName.startsWith(prefix) || !/^[a-z0-9_]+$/.test(methodName.slice(prefix.length))) {
      diags.add(
        "method-name-invalid",
        file,
        `${ptr}/name`,
        `method "${methodName}" must be ${prefix}<operation> in lower snake case${methodHint(methodName, prefix)}`,
      );
      return;
    }
    const op = methodName.slice(prefix.length);
    service.methods.push(buildMethod(m, { service, op, file, ptr, context: platform.context }, diags));
  });
  return service;
}

function buildMethod(
  m: JsonSchema,
  at: { service: ServiceModel; op: string; file: string; ptr: string; context: string },
  diags: Diagnostics,
): MethodModel {
  const { service, op, file, ptr } = at;
  const params = ((m["params"] ?? []) as JsonSchema[]).map(
    (p): ParamModel => ({
      name: str(p["name"]),
      required: p["required"] === true,
      description: str(p["description"]) || null,
      schema: (p["schema"] ?? {}) as JsonSchema,
    }),
  );
  const resultSchema = ((m["result"] as JsonSchema | undefined)?.["schema"] ?? {}) as JsonSchema;
  const result = typeof resultSchema["$ref"] === "string" ? refName(resultSchema["$ref"]) : null;
  if (!result)
    diags.add(
      "result-not-named",
      file,
      `${ptr}/result/schema`,
      "the result must be a $ref to a named object schema in #/components/schemas",
    );
  return {
    name: `${service.lower}.${op}`,
    kind: "service",
    owner: service.name,
    op,
    handlerName: camelCase(op),
    domain: service.domain,
    summary: str(m["summary"]),
    description: str(m["description"]),
    params,
    result: result ?? "",
    auth: parseAuth(m["x-auth"], file, `${ptr}/x-auth`, diags),
    target: parseTarget(m["x-target"], file, `${ptr}/x-target`, diags),
    actsAs: parseActsAs(m["x-acts-as"], file, `${ptr}/x-acts-as`, diags),
    visibility: parseVisibility(m["x-visibility"], file, `${ptr}/x-visibility`, diags),
    internal: m["x-internal"] === true,
    spends: parseSpends(m["x-spends"]),
    callerBinding: parseBinding(m["x-caller-binding"]),
    password: str(m["x-password"]) || null,
    audit: parseAudit(m["x-audit"]),
    mcp: parseMcp(m["x-mcp"], `${at.context}_${service.lower}_${op}`),
    errors: errorMap(m["x-errors"]),
    aliases: service.alias ? [`${service.alias}.${op}`] : [],
    file,
    pointer: ptr,
  };
}

/** The name a designer probably meant: the operation in lower snake case under the service's prefix. */
function methodHint(name: string, prefix: string): string {
  const operation = name.includes(".") ? name.slice(name.indexOf(".") + 1) : name;
  const snake = operation
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  return snake ? `; did you mean "${prefix}${snake}"?` : "";
}
