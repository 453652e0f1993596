import { knownCompanyRoles, MEMBER } from "./authorization.ts";
import { type Diagnostics, pointer } from "./diagnostics.ts";
import type {
  ActsAs,
  CompanyLink,
  JsonSchema,
  MethodModel,
  RecordModel,
  SpecModel,
  Target,
  TargetParty,
} from "./model.ts";

/**
 * `x-target` (a method's target record, the company role it needs, whether the company must operate), `x-acts-as`
 * (the resident whose status must allow the call) and `x-company` (how a record reaches its company): parsed here,
 * checked against the whole model in `checkTargets`, enforced by the dispatcher (src/rpc/target.ts).
 */

/** The ResidentAction values `x-acts-as` may name (src/domain/resident-status.ts has the table). */
export const RESIDENT_ACTIONS = [
  "act",
  "register",
  "renew",
  "update_profile",
  "update_subscription",
  "delete",
  "activate",
] as const;

/** The CompanyAction values `operable` may name besides `true` (operate). */
const COMPANY_ACTIONS = ["update_profile", "renew"];

const TARGET_KEYS = [
  "record",
  "param",
  "field",
  "role",
  "operable",
  "foreignResident",
  "proxy",
  "adminBypass",
  "party",
  "optional",
];
const ACTS_KEYS = ["param", "caller", "action", "role"];

const str = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);
const isObject = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `party`: `{ "resident": "<field>" }` or `{ "user": "<field>" }`; undefined when absent, null when malformed. */
function parseParty(value: unknown): TargetParty | null | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return null;
  const keys = Object.keys(value);
  const kind = keys[0];
  const field = kind === undefined ? null : str(value[kind]);
  if (keys.length !== 1 || (kind !== "resident" && kind !== "user") || field === null) return null;
  return { field, kind };
}

export function parseTarget(value: unknown, file: string, ptr: string, diags: Diagnostics): Target | null {
  if (value === undefined) return null;
  const v = isObject(value) ? value : {};
  const record = str(v["record"]);
  const param = str(v["param"]);
  const foreign = v["foreignResident"];
  const party = parseParty(v["party"]);
  const shapeOk =
    record !== null &&
    param !== null &&
    Object.keys(v).every((k) => TARGET_KEYS.includes(k)) &&
    (v["field"] === undefined || str(v["field"]) !== null) &&
    (v["role"] === undefined || str(v["role"]) !== null) &&
    (v["operable"] === undefined || v["operable"] === true || COMPANY_ACTIONS.includes(v["operable"] as never)) &&
    (foreign === undefined || foreign === "NotOwner" || foreign === "NotFound") &&
    (v["proxy"] === undefined || ((v["proxy"] === true || v["proxy"] === "see") && foreign !== undefined)) &&
    (v["adminBypass"] === undefined || v["adminBypass"] === false) &&
    party !== null &&
    (v["optional"] === undefined || v["optional"] === true) &&
    (party === undefined || str(v["role"]) !== null);
  if (!shapeOk) {
    diags.add(
      "invalid-target",
      file,
      ptr,
      'x-target must be { "record": "<Record>", "param": "<param>", "field"?: "<field>", "role"?: "<role>", ' +
        '"operable"?: true | "update_profile" | "renew", "foreignResident"?: "NotOwner" | "NotFound", "proxy"?: true | "see" (with foreignResident), "adminBypass"?: false, ' +
        '"party"?: { "resident" | "user": "<field>" } (with role), "optional"?: true }',
    );
    return null;
  }
  return {
    record: record as string,
    param: param as string,
    field: str(v["field"]) ?? "sid",
    role: str(v["role"]),
    operable: v["operable"] !== undefined,
    companyAction: typeof v["operable"] === "string" ? (v["operable"] as Target["companyAction"]) : "operate",
    foreignResident: (foreign as Target["foreignResident"] | undefined) ?? null,
    proxy: v["proxy"] !== undefined,
    proxyActs: v["proxy"] === true,
    adminBypass: v["adminBypass"] !== false,
    party: party ?? null,
    optional: v["optional"] === true,
    company: null,
  };
}

export function parseActsAs(value: unknown, file: string, ptr: string, diags: Diagnostics): ActsAs | null {
  if (value === undefined) return null;
  if (typeof value === "string" && value.length > 0) return { param: value, caller: false, action: "act", role: null };
  const v = isObject(value) ? value : {};
  const param = str(v["param"]);
  const caller = v["caller"] === true;
  const action = str(v["action"]) ?? "act";
  const role = str(v["role"]);
  const shapeOk =
    Object.keys(v).every((k) => ACTS_KEYS.includes(k)) &&
    (param !== null) !== caller &&
    (v["caller"] === undefined || typeof v["caller"] === "boolean") &&
    (RESIDENT_ACTIONS as readonly string[]).includes(action) &&
    (v["role"] === undefined || (role !== null && param !== null));
  if (!shapeOk) {
    diags.add(
      "invalid-acts-as",
      file,
      ptr,
      `x-acts-as must be "<param>", { "param": "<param>", "action"?: "<action>", "role"?: "<company role>" } or ` +
        `{ "caller": true, "action"?: "<action>" }, the action one of ${RESIDENT_ACTIONS.join(", ")}`,
    );
    return null;
  }
  return { param, caller, action: action as ActsAs["action"], role };
}

/**
 * `x-company`: how a record reaches the company that owns it.
 * - `"<field>"`: the field holds the company's formatted id.
 * - `{ "field": "<field>", "resident": "<field>" }`: where the company field is empty, the second names the resident
 *   the record belongs to (a person-to-person issuer).
 * - `{ "field": "<field>", "kind": "<field>" }`: `kind` says what `field` names: `company` or `resident` (an
 *   EntityType: a treasury account's owner).
 * - `{ "through": "<Record>", "field": "<field>" }`: `field` holds the sid of another record, whose own x-company
 *   says the rest (a fund transfer reaches its company through its source account).
 */
export function parseCompanyLink(value: unknown, file: string, diags: Diagnostics): CompanyLink | null {
  if (value === undefined) return null;
  if (typeof value === "string" && value.length > 0) return { field: value, resident: null, kind: null, through: null };
  const v = isObject(value) ? value : {};
  const field = str(v["field"]);
  const extra = ["resident", "kind", "through"].filter((k) => v[k] !== undefined);
  const second = extra.length === 1 ? str(v[extra[0] as string]) : null;
  if (!field || !second || !Object.keys(v).every((k) => k === "field" || extra.includes(k))) {
    diags.add(
      "invalid-company-link",
      file,
      pointer("x-company"),
      'x-company must be "<field>", { "field", "resident" }, { "field", "kind" } or { "through": "<Record>", "field" }',
    );
    return null;
  }
  const link: CompanyLink = { field, resident: null, kind: null, through: null };
  link[extra[0] as "resident" | "kind" | "through"] = second;
  return link;
}

function fieldNames(record: RecordModel): string[] {
  return Object.keys((record.schema["properties"] ?? {}) as JsonSchema);
}

/**
 * A target's record, param and field exist; a role or `operable` needs a record that reaches a company; the role is
 * known; the refusals the dispatcher may answer are declared in `x-errors`; `x-auth` says only who may call.
 */
function checkTarget(m: MethodModel, model: SpecModel, records: Map<string, RecordModel>, diags: Diagnostics): void {
  const t = m.target;
  if (!t) return;
  const at = (key: string) => `${m.pointer}/x-target${key ? `/${key}` : ""}`;
  const record = records.get(t.record);
  if (!record) {
    diags.add("unknown-target-record", m.file, at("record"), `x-target names record ${t.record}, which the spec lacks`);
    return;
  }
  t.company = record.company;
  if (!m.params.some((p) => p.name === t.param))
    diags.add("unknown-param", m.file, at("param"), `x-target.param names "${t.param}", which ${m.name} does not take`);
  const fields = fieldNames(record);
  const keyed = t.field === "sid" || record.indexed.includes(t.field) || record.unique.some((u) => u[0] === t.field);
  if (!fields.includes(t.field) || !keyed) {
    diags.add(
      "invalid-target-field",
      m.file,
      at("field"),
      `x-target.field "${t.field}" is not an indexed field of ${t.record} (sid or one of x-indexed)`,
    );
  }
  if ((t.role || t.operable || t.foreignResident) && !record.company) {
    diags.add(
      "target-without-company",
      m.file,
      at(""),
      `${t.record} declares no x-company, so x-target cannot check a company role or status`,
    );
  }
  const ownedByResident = record.company && (record.company.resident || record.company.kind || record.company.through);
  if (t.foreignResident && record.company && !ownedByResident && t.field !== record.company.field) {
    diags.add(
      "target-without-company",
      m.file,
      at("foreignResident"),
      `${t.record}'s x-company names no resident and the param does not name the company itself, so ` +
        "x-target.foreignResident has nothing to refuse",
    );
  }
  if (t.party && !fields.includes(t.party.field)) {
    diags.add(
      "unknown-field",
      m.file,
      at("party"),
      `x-target.party names "${t.party.field}", which ${t.record} does not have`,
    );
  }
  const roles = knownCompanyRoles(model);
  if (t.role && roles.length > 1 && !roles.includes(t.role)) {
    diags.add("unknown-company-role", m.file, at("role"), `company role "${t.role}" is not one of ${roles.join(", ")}`);
  }
  if (!["user", "session"].includes(m.auth)) {
    diags.add(
      "target-auth",
      m.file,
      `${m.pointer}/x-auth`,
      `${m.name} has x-target, so its x-auth must be user or session (who may call), not ${m.auth}`,
    );
  }
  const needed = ["NotFound"];
  if (t.role && t.role !== MEMBER) needed.push("Forbidden");
  if (t.operable || actsThroughTarget(m)) needed.push("InvalidState");
  if (t.foreignResident) needed.push(t.foreignResident);
  requireVariants(m, needed, "x-target", diags);
}

/** Whether the dispatcher's status gate reads the resident through the target (a write with a role or an issuer). */
export function actsThroughTarget(m: Pick<MethodModel, "target" | "mcp">): boolean {
  const t = m.target;
  return t !== null && !m.mcp.readOnly && (t.role !== null || t.foreignResident !== null);
}

function requireVariants(m: MethodModel, needed: string[], what: string, diags: Diagnostics): void {
  const declared = new Set(Object.values(m.errors).flat());
  for (const variant of new Set(needed)) {
    if (!declared.has(variant)) {
      diags.add(
        "target-variant",
        m.file,
        `${m.pointer}/x-errors`,
        `${m.name} has ${what}, which refuses with ${variant}: declare it in x-errors`,
      );
    }
  }
}

function checkActsAs(m: MethodModel, model: SpecModel, diags: Diagnostics): void {
  const a = m.actsAs;
  if (!a) return;
  if (a.role) {
    const roles = knownCompanyRoles(model);
    if (roles.length > 1 && !roles.includes(a.role)) {
      diags.add(
        "unknown-company-role",
        m.file,
        `${m.pointer}/x-acts-as/role`,
        `company role "${a.role}" is not one of ${roles.join(", ")}`,
      );
    }
    if (!m.target?.company) {
      diags.add(
        "invalid-acts-as",
        m.file,
        `${m.pointer}/x-acts-as/role`,
        `x-acts-as role is a role in the target's company: ${m.name} needs an x-target whose record has a company`,
      );
    }
    requireVariants(m, ["Forbidden"], "x-acts-as role", diags);
  }
  if (a.param && !m.params.some((p) => p.name === a.param)) {
    diags.add(
      "unknown-param",
      m.file,
      `${m.pointer}/x-acts-as`,
      `x-acts-as names "${a.param}", which ${m.name} does not take`,
    );
  }
  requireVariants(m, ["InvalidState"], "x-acts-as", diags);
}

/** Record links and every method's target and acting resident, against the whole model. */
export function checkTargets(model: SpecModel, diags: Diagnostics): void {
  const records = new Map(model.records.map((r) => [r.name, r]));
  for (const record of model.records) {
    const through = record.company?.through;
    if (through && !records.get(through)?.company) {
      diags.add(
        "invalid-company-link",
        record.file,
        pointer("x-company", "through"),
        `x-company goes through ${through}, which is not a record with an x-company of its own`,
      );
    }
    for (const field of [record.company?.field, record.company?.resident, record.company?.kind]) {
      if (field && !fieldNames(record).includes(field)) {
        diags.add(
          "unknown-field",
          record.file,
          pointer("x-company"),
          `x-company names "${field}", which ${record.name} does not have`,
        );
      }
    }
  }
  for (const m of model.methods) {
    checkTarget(m, model, records, diags);
    checkActsAs(m, model, diags);
  }
}
