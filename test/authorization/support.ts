import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CompanyRule, companyRoleKinds, companyRule, passesCompanyRole } from "../../codegen/authorization.ts";
import type { MethodEntry } from "../../generated/registry.ts";
import { createRegistry } from "../../src/app/runtime.ts";
import type { RpcContext } from "../../src/rpc/context.ts";
import { sample, sampleParams } from "../identity/sample-params.ts";
import { type Client, PASSWORD, type TestApp } from "../support/app.ts";
import { insertCompany, insertResident, insertRole, member, startFinanceApp } from "../support/entities.ts";
import { insertApiKey } from "../support/helpers.ts";

/**
 * The authorization table as the tests read it: the rows come from the registry (the spec's x-auth and
 * x-issuer-role, through the same `companyRule` that writes docs/authorization.md), and the expected outcome of each
 * caller from the same role model (codegen/authorization.ts). The server is checked against that model.
 */

type Entry = MethodEntry<RpcContext>;

type Schema = Record<string, any>;

const allDoc = JSON.parse(readFileSync(join(import.meta.dirname, "../../generated/openrpc/all.json"), "utf8")) as {
  methods: { name: string; params: { name: string; schema: Schema }[] }[];
  components: { schemas: Record<string, Schema> };
};

function deref(schema: Schema): Schema {
  let s = schema;
  while (typeof s["$ref"] === "string") s = allDoc.components.schemas[String(s["$ref"].split("/").pop())] ?? {};
  return s;
}

/** sampleParams, with one property in each object param whose schema needs some (`minProperties`). */
function validSample(entry: Entry): Record<string, unknown> {
  const params = sampleParams(entry.name);
  const method = allDoc.methods.find((m) => m.name === entry.name);
  for (const p of method?.params ?? []) {
    const schema = deref(p.schema);
    const value = params[p.name];
    if (!schema["minProperties"] || typeof value !== "object" || value === null || Object.keys(value).length > 0)
      continue;
    const [key, property] = Object.entries((schema["properties"] ?? {}) as Record<string, Schema>)[0] ?? [];
    if (key && property) params[p.name] = { [key]: sample(property, key) };
  }
  return params;
}

/** CompanyRoleKind values, from the served OpenRPC document. */
export const ROLE_KINDS = companyRoleKinds({ schemas: allDoc.components.schemas });

export interface Row {
  entry: Entry;
  rule: CompanyRule;
}

/** Every company-scoped method of the registry, by name (aliases once), sorted. */
export function companyRows(): Row[] {
  const seen = new Map<string, Row>();
  for (const entry of createRegistry().values()) {
    const rule = companyRule(entry);
    if (rule) seen.set(entry.name, { entry, rule });
  }
  return [...seen.values()].sort((a, b) => a.entry.name.localeCompare(b.entry.name));
}

/** One kind of caller; `held` is what the role model sees (`owner` for the owning user, [] for no current role). */
export interface CastSpec {
  name: string;
  held: string[] | "admin";
}

const PAST = { valid_from: new Date("2025-01-01T00:00:00.000Z"), valid_to: new Date("2026-01-01T00:00:00.000Z") };
const FUTURE = { valid_from: new Date("2027-06-01T00:00:00.000Z") };

/** The callers: each CompanyRoleKind, the owner without a role, past and future holders, outsiders, an administrator. */
export const CASTS: CastSpec[] = [
  ...ROLE_KINDS.map((kind) => ({ name: kind, held: [kind] })),
  { name: "owner without a role", held: ["owner"] },
  { name: "past director (window closed)", held: [] },
  { name: "future director (window not started)", held: [] },
  { name: "director of another company", held: [] },
  { name: "stranger", held: [] },
  { name: "administrator (session)", held: "admin" },
  { name: "director's API key", held: ["director"] },
  { name: "administrator's API key (not a session)", held: [] },
];

export interface Caller {
  client: Client;
  /** A resident the caller owns (resident-bound params name it). */
  resident: string;
}

export interface Company {
  t: TestApp;
  company: string;
  callers: Map<string, Caller>;
}

/** One app, one active company and one caller per cast (each a user with its own resident). */
export async function staffCompany(): Promise<Company> {
  const t = await startFinanceApp();
  const owner = await member(t);
  const company = await insertCompany(t, owner.client.userId);
  const other = await insertCompany(t, owner.client.userId);
  const callers = new Map<string, Caller>();
  const holder = async (role: string, extra: Record<string, unknown> = {}, at = company): Promise<Caller> => {
    const m = await member(t);
    await insertRole(t, at, m.resident, role, extra);
    return m;
  };
  for (const kind of ROLE_KINDS) callers.set(kind, await holder(kind));
  callers.set("owner without a role", owner);
  callers.set("past director (window closed)", await holder("director", PAST));
  callers.set("future director (window not started)", await holder("director", FUTURE));
  callers.set("director of another company", await holder("director", {}, other));
  callers.set("stranger", await member(t));
  const admin = await t.admin();
  const adminResident = await insertResident(t, admin.userId);
  callers.set("administrator (session)", { client: admin, resident: adminResident });
  const director = callers.get("director")!;
  callers.set("director's API key", { client: await viaKey(t, director.client), resident: director.resident });
  callers.set("administrator's API key (not a session)", { client: await viaKey(t, admin), resident: adminResident });
  return { t, company, callers };
}

/** The same user calling with a personal API key (limits high enough for a whole table) instead of its session. */
async function viaKey(t: TestApp, user: Client): Promise<Client> {
  const limit = 1_000_000;
  const { key } = await insertApiKey(t.app.runtime.orm, user.userId, {
    max_calls_per_hour: limit,
    max_calls_per_day: limit,
    max_transaction_amount: limit,
    daily_spending_limit: limit,
    monthly_spending_limit: limit,
  });
  return { ...user, rpc: (method, params) => t.rpc(method, params, { "x-api-key": key }) };
}

/** What the role model says a caller gets: through, or the refusal (no current role NotFound, another Forbidden). */
export function expected(role: string, cast: CastSpec): "allowed" | "NotFound" | "Forbidden" {
  if (cast.held === "admin" || passesCompanyRole(role, cast.held)) return "allowed";
  return cast.held.length === 0 ? "NotFound" : "Forbidden";
}

/**
 * Valid params for the row: sample values, the company (or issuer) param, the caller's own resident in a
 * resident-bound param (so the caller binding passes and the role decides), other bound params left to the server.
 */
export function paramsFor(row: Row, issuer: string, caller: Caller): Record<string, unknown> {
  const params = validSample(row.entry);
  params[row.rule.param] = issuer;
  const binding = row.entry.callerBinding;
  if (binding?.kind === "resident") params[binding.param] = caller.resident;
  else if (binding) delete params[binding.param];
  if (row.entry.password) params[row.entry.password] = PASSWORD;
  return params;
}
