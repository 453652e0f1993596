import { HEADER, paramsTypeName } from "../derive.ts";
import type { MethodModel, SpecModel } from "../model.ts";
import { tsTypeName } from "../naming.ts";
import { secretPaths } from "../secrets.ts";
import type { GeneratedFile } from "../write.ts";

function policy(m: MethodModel, schemas: SpecModel["schemas"]): string {
  const secrets = secretPaths(m.result, schemas);
  const value = {
    name: m.name,
    kind: m.kind,
    owner: m.owner,
    op: m.op,
    domain: m.domain,
    auth: m.auth,
    target: m.target,
    actsAs: m.actsAs,
    // Only where the spec declares it.
    visibility: m.visibility ?? undefined,
    internal: m.internal,
    // Likewise only where the spec declares it.
    spends: m.spends || undefined,
    callerBinding: m.callerBinding,
    password: m.password,
    audit: m.audit,
    mcp: m.mcp,
    errors: m.errors,
    result: m.result,
    // Only where the result can hold an embedded secret.
    resultSecrets: secrets.length > 0 ? secrets : undefined,
    paramNames: m.params.map((p) => p.name),
    aliases: m.aliases,
  };
  return JSON.stringify(value);
}

function bind(m: MethodModel, services: Map<string, string>): string {
  const params = `p as ${tsTypeName(paramsTypeName(m))}`;
  if (m.kind === "crud") return `(ctx, p) => crud.${m.op}(ctx, RECORDS.${m.owner}, ${params})`;
  // The dispatcher set `ctx.target` (src/rpc/target.ts) before it invokes a method with x-target.
  const ctx = m.target
    ? `ctx as Targeted<Ctx, RowOf[${JSON.stringify(m.target.record)}]${m.target.optional ? " | null" : ""}>`
    : "ctx";
  return `(ctx, p) => handlers.${services.get(m.owner)}.${m.handlerName}(${ctx}, ${params})`;
}

/** Method name -> policy from the spec, validators, and the binding to hand-written handlers. */
export function emitRegistry(model: SpecModel): GeneratedFile[] {
  const services = new Map(model.services.map((s) => [s.name, s.key]));
  const paramTypes = [...new Set(model.methods.map((m) => tsTypeName(paramsTypeName(m))))].sort();
  const entries = model.methods.map(
    (m) =>
      `    entry(${policy(m, model.schemas)}, v.validate${paramsTypeName(m)}, v.validate${m.result}, ${bind(m, services)}),`,
  );
  const content = [
    HEADER,
    'import type { ValidateFunction } from "ajv";',
    'import { type CrudHandlers, RECORDS } from "./crud.ts";',
    'import type { ServiceHandlers } from "./handlers/index.ts";',
    'import type { RowOf } from "./entities.ts";',
    'import type { MethodPolicy, Targeted } from "./policy.ts";',
    `import type { ${paramTypes.join(", ")} } from "./types.ts";`,
    'import * as v from "./validators.cjs";',
    "",
    "export interface MethodEntry<Ctx> extends MethodPolicy {",
    "  validateParams: ValidateFunction;",
    "  validateResult: ValidateFunction;",
    "  /** The handler's answer: a value, or a promise of one (a handler that waits for nothing answers at once). */",
    "  invoke(ctx: Ctx, params: unknown): unknown;",
    "}",
    "",
    "/** Binds the hand-written handlers; the result maps every wire name (aliases too) to its entry. */",
    "export function buildRegistry<Ctx>(handlers: ServiceHandlers<Ctx>, crud: CrudHandlers<Ctx>): Map<string, MethodEntry<Ctx>> {",
    "  const entry = (",
    "    policy: MethodPolicy,",
    "    validateParams: ValidateFunction,",
    "    validateResult: ValidateFunction,",
    "    invoke: (ctx: Ctx, params: unknown) => unknown,",
    "  ): MethodEntry<Ctx> => ({ ...policy, validateParams, validateResult, invoke });",
    "  const all: MethodEntry<Ctx>[] = [",
    ...entries,
    "  ];",
    "  const registry = new Map<string, MethodEntry<Ctx>>();",
    "  for (const e of all) for (const name of [e.name, ...e.aliases]) registry.set(name, e);",
    "  return registry;",
    "}",
    "",
  ].join("\n");
  const policyTypes = [
    HEADER,
    'import type { AuditAction, AuditTargetType, DocumentKind } from "./types.ts";',
    "",
    'export type CallerBindingKind = "user" | "resident" | "partner";',
    "export type ResidentActionName =",
    '  | "act"',
    '  | "register"',
    '  | "renew"',
    '  | "update_profile"',
    '  | "update_subscription"',
    '  | "delete"',
    '  | "activate";',
    "",
    "/** A record's `x-company` (docs/spec-format.md). */",
    "export interface CompanyLinkPolicy {",
    "  field: string;",
    "  resident: string | null;",
    "  kind: string | null;",
    "  through: string | null;",
    "}",
    "",
    "export interface TargetPolicy {",
    "  record: string;",
    "  param: string;",
    "  field: string;",
    "  role: string | null;",
    "  operable: boolean;",
    "  /** With `operable`: the CompanyAction the status must allow (src/domain/company-status.ts). */",
    '  companyAction: "operate" | "update_profile" | "renew";',
    '  foreignResident: "NotOwner" | "NotFound" | null;',
    "  /** A resident's target admits an effective proxy holder of the resident as its owner. */",
    "  proxy: boolean;",
    '  /** With `proxy`: the proxy holder changes the record too (`"proxy": true`), or only sees it (`"see"`). */',
    "  proxyActs: boolean;",
    "  /** An administrator's session passes the checks (false: it is checked as any caller). */",
    "  adminBypass: boolean;",
    "  /** The target's party (an alternative to the role, for one who sees the target): its field and what it names. */",
    '  party: { field: string; kind: "resident" | "user" } | null;',
    "  /** The param is optional: absent, nothing is checked and `ctx.target.row` is null. */",
    "  optional: boolean;",
    "  /** The record's `x-company`: the field naming its company and, where that is empty, the one naming a resident. */",
    "  company: CompanyLinkPolicy | null;",
    "}",
    "",
    "/** What the dispatcher hands a handler of a method with `x-target`: the loaded row and where it belongs. */",
    "export interface TargetOf<Row> {",
    "  row: Row;",
    "  /** The formatted id of the company the record belongs to; null when it belongs to a resident. */",
    "  companyId: string | null;",
    "  /** The resident the record belongs to instead (a person-to-person issuer). */",
    "  residentId: string | null;",
    "}",
    "",
    "export type Targeted<Ctx, Row> = Ctx & { target: TargetOf<Row> };",
    "",
    "export interface ActsAsPolicy {",
    "  param: string | null;",
    "  caller: boolean;",
    "  action: ResidentActionName;",
    "  /** A company role the named resident itself must hold in the target's company (Forbidden), or null. */",
    "  role: string | null;",
    "}",
    "",
    "/** `x-visibility`: a DocumentKind and the param naming one document, or the result field listing many. */",
    "export interface VisibilityPolicy {",
    "  kind: DocumentKind;",
    "  param: string | null;",
    "  items: string | null;",
    "}",
    "",
    "/** What the spec's `x-` extensions say about one method; enforced by the dispatcher. */",
    "export interface MethodPolicy {",
    "  name: string;",
    '  kind: "service" | "crud";',
    "  owner: string;",
    "  op: string;",
    "  domain: string;",
    "  auth: string;",
    "  /** `x-target`: the record the dispatcher loads and authorizes before the handler (src/rpc/target.ts). */",
    "  target: TargetPolicy | null;",
    "  /** `x-acts-as`: the resident whose status must allow the call. */",
    "  actsAs: ActsAsPolicy | null;",
    "  /**",
    "   * `x-visibility`: the DocumentAudience rule decides the read (src/rpc/visibility.ts): the document `param` names,",
    "   * or the records in the result's `items` field. Absent on every other method.",
    "   */",
    "  visibility?: VisibilityPolicy;",
    "  internal: boolean;",
    "  /**",
    "   * `x-spends`: the method may move money out of a credit wallet or treasury account during the call; the ledger",
    "   * refuses to move money in a call of a method without it. Absent on every other method.",
    "   */",
    "  spends?: true;",
    "  callerBinding: { param: string; kind: CallerBindingKind; adminMayOverride: boolean } | null;",
    "  password: string | null;",
    "  audit: { action: AuditAction; targetType: AuditTargetType | null; targetParam: string | null } | null;",
    "  mcp: { name: string; readOnly: boolean; destructive: boolean; idempotent: boolean; amountParam: string | null };",
    "  errors: Record<string, string[]>;",
    "  result: string;",
    "  /** `x-secret` properties of embedded schemas in the result (`*`: every item): set to null on the way out. */",
    "  resultSecrets?: string[][];",
    "  paramNames: string[];",
    "  aliases: string[];",
    "}",
    "",
    "/** Every record's `x-company`, by record title: how a target reached through another record finds its company. */",
    `export const COMPANY_LINKS: Record<string, CompanyLinkPolicy> = ${JSON.stringify(
      Object.fromEntries(model.records.filter((r) => r.company).map((r) => [r.name, r.company])),
    )};`,
    "",
    `export const CONTEXT = ${JSON.stringify(model.context)};`,
    `export const SCHEMA_VERSION = ${JSON.stringify(model.schemaVersion)};`,
    `export const DOMAINS = ${JSON.stringify(model.domains.map((d) => d.name))} as const;`,
    "",
  ].join("\n");
  return [
    { path: "generated/registry.ts", content },
    { path: "generated/policy.ts", content: policyTypes },
  ];
}
