import { type Diagnostics, pointer } from "./diagnostics.ts";
import type {
  AuditPolicy,
  AuthMode,
  CallerBinding,
  IssuerRole,
  JsonSchema,
  McpPolicy,
  MethodModel,
  ParamModel,
  ServiceModel,
} from "./model.ts";
import { camelCase, refName } from "./naming.ts";

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

function parseAuth(value: unknown, file: string, ptr: string, diags: Diagnostics): AuthMode {
  const auth = str(value, "user");
  if (AUTH_MODES.includes(auth) || /^company:[a-z_]+$/.test(auth)) return auth as AuthMode;
  diags.add("invalid-auth", file, ptr, `x-auth "${auth}" is not one of ${AUTH_MODES.join(", ")} or company:<role>`);
  return "user";
}

function parseBinding(value: unknown): CallerBinding | null {
  if (typeof value === "string") return { param: value, kind: "user", adminMayOverride: false };
  if (value && typeof value === "object") {
    const v = value as JsonSchema;
    const kind = str(v["kind"], "user");
    return {
      param: str(v["param"]),
      kind: kind === "resident" || kind === "partner" ? kind : "user",
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

/** `x-issuer-role` as written; its names and variants are checked with the whole model (check.ts). */
function parseIssuerRole(value: unknown, file: string, ptr: string, diags: Diagnostics): IssuerRole | null {
  if (value === undefined) return null;
  const v = (value && typeof value === "object" && !Array.isArray(value) ? value : {}) as JsonSchema;
  const param = str(v["param"]);
  const role = str(v["role"]);
  const foreignResident = str(v["foreignResident"], "NotOwner");
  const known = Object.keys(v).every((k) => ["param", "role", "foreignResident"].includes(k));
  if (!param || !role || !known || (foreignResident !== "NotOwner" && foreignResident !== "NotFound")) {
    diags.add(
      "invalid-issuer-role",
      file,
      ptr,
      'x-issuer-role must be { "param": "<param>", "role": "<role>", "foreignResident": "NotOwner" | "NotFound" }',
    );
    return null;
  }
  return { param, role, foreignResident };
}

/** `x-spends`: a boolean, default false. */
function parseSpends(value: unknown, file: string, ptr: string, diags: Diagnostics): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") diags.add("invalid-spends", file, ptr, "x-spends must be true or false");
  return value === true;
}

function parseMcp(value: unknown, defaultName: string): McpPolicy {
  const v = (value && typeof value === "object" ? value : {}) as JsonSchema;
  return {
    name: str(v["name"], defaultName),
    readOnly: v["readOnly"] === true,
    destructive: v["destructive"] === true,
    idempotent: v["idempotent"] === true,
    amountParam: str(v["amountParam"]) || null,
  };
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
    errorTypes: (json["x-error-types"] ?? []) as string[],
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
        `method "${methodName}" must be ${prefix}<operation> in lower snake case`,
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
    issuerRole: parseIssuerRole(m["x-issuer-role"], file, `${ptr}/x-issuer-role`, diags),
    internal: m["x-internal"] === true,
    spends: parseSpends(m["x-spends"], file, `${ptr}/x-spends`, diags),
    callerBinding: parseBinding(m["x-caller-binding"]),
    password: str(m["x-password"]) || null,
    audit: parseAudit(m["x-audit"]),
    mcp: parseMcp(m["x-mcp"], `${at.context}_${service.lower}_${op}`),
    errors: (m["x-errors"] ?? {}) as Record<string, string[]>,
    aliases: service.alias ? [`${service.alias}.${op}`] : [],
    file,
    pointer: ptr,
  };
}
