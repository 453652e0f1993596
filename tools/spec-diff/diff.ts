import type { JsonSchema } from "../../codegen/model.ts";
import { reachableSchemas } from "../../codegen/schema-walk.ts";
import { compareAuth } from "./auth.ts";
import { type Change, type Position, segment } from "./change.ts";
import type { Contract, MethodContract } from "./contract.ts";
import { compareSchema, type SchemaContext } from "./schema-diff.ts";

const breaking = (pointer: string, message: string): Change => ({ pointer, kind: "breaking", message });
const compatible = (pointer: string, message: string): Change => ({ pointer, kind: "compatible", message });

function context(old: Contract, next: Contract, positions: Position[], out: Change[]): SchemaContext {
  return { old: old.schemas, new: next.schemas, positions: new Set(positions), out, seen: new Set() };
}

function compareParams(old: Contract, next: Contract, o: MethodContract, n: MethodContract, out: Change[]): void {
  const at = `/methods${segment(n.name)}/params`;
  const newParams = new Map(n.params.map((p) => [p.name, p]));
  const oldParams = new Map(o.params.map((p) => [p.name, p]));
  for (const p of o.params) {
    const q = newParams.get(p.name);
    const ptr = `${at}${segment(p.name)}`;
    if (!q) {
      out.push(breaking(ptr, `param ${p.name} removed (calls naming it are refused as unknown params)`));
      continue;
    }
    if (!p.required && q.required) out.push(breaking(ptr, `param ${p.name} now required`));
    if (p.required && !q.required) out.push(compatible(ptr, `param ${p.name} now optional`));
    if (p.description !== q.description) out.push(compatible(`${ptr}/description`, "description changed"));
    compareSchema(context(old, next, ["input"], out), `${ptr}/schema`, p.schema, q.schema);
  }
  for (const q of n.params) {
    if (oldParams.has(q.name)) continue;
    const ptr = `${at}${segment(q.name)}`;
    out.push(
      q.required ? breaking(ptr, `new required param ${q.name}`) : compatible(ptr, `optional param ${q.name} added`),
    );
  }
}

function compareErrors(o: MethodContract, n: MethodContract, out: Change[]): void {
  const at = `/methods${segment(n.name)}/x-errors`;
  const ptr = (key: string) => `${at}${key.split(".").map(segment).join("")}`;
  const newErrors = new Map(n.errors.map((e) => [e.key, e]));
  const oldErrors = new Map(o.errors.map((e) => [e.key, e]));
  for (const e of o.errors) {
    const f = newErrors.get(e.key);
    if (!f) out.push(breaking(ptr(e.key), `error variant ${e.key} removed`));
    else if (e.code !== f.code)
      out.push(breaking(ptr(e.key), `error ${e.key} code changed from ${e.code} to ${f.code}`));
  }
  for (const f of n.errors)
    if (!oldErrors.has(f.key)) out.push(compatible(ptr(f.key), `error variant ${f.key} added (code ${f.code})`));
}

function comparePolicy(o: MethodContract, n: MethodContract, out: Change[]): void {
  const at = `/methods${segment(n.name)}`;
  const auth = compareAuth(o.auth, n.auth);
  const move = `x-auth ${o.auth} -> ${n.auth}`;
  if (auth === "tightened") out.push(breaking(`${at}/x-auth`, `auth tightened: ${move}`));
  if (auth === "changed") out.push(breaking(`${at}/x-auth`, `auth changed: ${move} (some callers lose access)`));
  if (auth === "loosened") out.push(compatible(`${at}/x-auth`, `auth loosened: ${move}`));
  if (!o.internal && n.internal) out.push(breaking(`${at}/x-internal`, "now internal: every outside call is refused"));
  if (o.internal && !n.internal) out.push(compatible(`${at}/x-internal`, "no longer internal"));
  for (const alias of o.aliases)
    if (!n.aliases.includes(alias)) out.push(breaking(`${at}/x-alias${segment(alias)}`, `alias ${alias} removed`));
  for (const alias of n.aliases)
    if (!o.aliases.includes(alias)) out.push(compatible(`${at}/x-alias${segment(alias)}`, `alias ${alias} added`));
  if (o.tool && o.tool !== n.tool)
    out.push(
      breaking(`/tools${segment(o.tool)}`, `MCP tool ${o.tool} removed (${n.name} is now ${n.tool ?? "no tool"})`),
    );
  if (n.tool && o.tool !== n.tool) out.push(compatible(`/tools${segment(n.tool)}`, `MCP tool ${n.tool} added`));
  for (const key of new Set([...Object.keys(o.hints), ...Object.keys(n.hints)])) {
    const [a, b] = [JSON.stringify(o.hints[key]), JSON.stringify(n.hints[key])];
    if (a !== b)
      out.push(compatible(`${at}/x-mcp/${key}`, `MCP ${key} changed from ${a ?? "unset"} to ${b ?? "unset"}`));
  }
  if (o.summary !== n.summary) out.push(compatible(`${at}/summary`, "summary changed"));
  if (o.description !== n.description) out.push(compatible(`${at}/description`, "description changed"));
}

function compareMethod(old: Contract, next: Contract, o: MethodContract, n: MethodContract, out: Change[]): void {
  compareParams(old, next, o, n, out);
  compareSchema(context(old, next, ["output"], out), `/methods${segment(n.name)}/result`, o.result, n.result);
  compareErrors(o, n, out);
  comparePolicy(o, n, out);
}

/** Where each named schema is read: reached from params (input), from results (output). */
function usage(contract: Contract): Map<string, Set<Position>> {
  const uses = new Map<string, Set<Position>>();
  const mark = (roots: unknown[], position: Position) => {
    for (const name of reachableSchemas(roots, contract.schemas)) {
      if (!uses.has(name)) uses.set(name, new Set());
      uses.get(name)!.add(position);
    }
  };
  for (const m of contract.methods.values()) {
    mark(
      m.params.map((p) => p.schema),
      "input",
    );
    mark([m.result], "output");
  }
  return uses;
}

function compareSchemas(old: Contract, next: Contract, out: Change[]): void {
  const oldUse = usage(old);
  const newUse = usage(next);
  for (const [name, schema] of Object.entries(old.schemas)) {
    const at = `/components/schemas${segment(name)}`;
    const replacement = next.schemas[name];
    if (!replacement) {
      out.push(compatible(at, `schema ${name} no longer named in components (methods that used it are listed)`));
      continue;
    }
    const positions = [...(oldUse.get(name) ?? []), ...(newUse.get(name) ?? [])];
    const ctx = context(old, next, positions, out);
    ctx.seen.add(`${name}|${name}`);
    compareSchema(ctx, at, schema as JsonSchema, replacement as JsonSchema);
  }
  for (const name of Object.keys(next.schemas))
    if (!old.schemas[name]) out.push(compatible(`/components/schemas${segment(name)}`, `schema ${name} added`));
}

/** Every change from `old` to `next`, methods first (in the new contract's order), then named schemas. */
export function diffContracts(old: Contract, next: Contract): Change[] {
  const out: Change[] = [];
  const tools = new Set([...next.methods.values()].map((m) => m.tool));
  for (const o of old.methods.values()) {
    if (next.methods.has(o.name)) continue;
    const at = `/methods${segment(o.name)}`;
    const tool = o.tool && !tools.has(o.tool) ? ` and its MCP tool ${o.tool}` : "";
    out.push(breaking(at, `method ${o.name}${tool} removed`));
    for (const alias of o.aliases) out.push(breaking(`${at}/x-alias${segment(alias)}`, `alias ${alias} removed`));
  }
  for (const n of next.methods.values()) {
    const o = old.methods.get(n.name);
    if (o) compareMethod(old, next, o, n, out);
    else
      out.push(
        compatible(`/methods${segment(n.name)}`, `method ${n.name} added${n.tool ? ` (MCP tool ${n.tool})` : ""}`),
      );
  }
  compareSchemas(old, next, out);
  return out;
}
