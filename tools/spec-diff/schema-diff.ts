import type { JsonSchema } from "../../codegen/model.ts";
import { refName } from "../../codegen/naming.ts";
import { type Change, type Effect, isBreaking, type Position, segment } from "./change.ts";

export interface SchemaContext {
  old: Record<string, JsonSchema>;
  new: Record<string, JsonSchema>;
  positions: ReadonlySet<Position>;
  out: Change[];
  /** Pairs of differently named schemas being compared, against cycles. */
  seen: Set<string>;
}

const MIN_KEYS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const MAX_KEYS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const HANDLED = new Set([
  ...MIN_KEYS,
  ...MAX_KEYS,
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "description",
  "title",
  "default",
  "examples",
  "$comment",
  "$ref",
]);

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v);

function emit(ctx: SchemaContext, ptr: string, effect: Effect, message: string): void {
  const breaking = isBreaking(effect, ctx.positions);
  const unreached = ctx.positions.size === 0 && effect !== "info" ? " (no method reaches it)" : "";
  ctx.out.push({ pointer: ptr, kind: breaking ? "breaking" : "compatible", message: `${message}${unreached}` });
}

/** An explicit rule per position, for changes that are not a plain narrowing or widening. */
function emitBy(ctx: SchemaContext, ptr: string, breaks: Record<Position, boolean>, message: string): void {
  const breaking = [...ctx.positions].some((p) => breaks[p]);
  ctx.out.push({ pointer: ptr, kind: breaking ? "breaking" : "compatible", message });
}

/** Splits the spec's nullable forms (`type: [T, "null"]`, `anyOf: [X, {type: "null"}]`) into a flag and the rest. */
function splitNull(schema: JsonSchema): { nullable: boolean; core: JsonSchema } {
  const type = schema["type"];
  if (Array.isArray(type) && type.includes("null")) {
    const rest = type.filter((t) => t !== "null");
    return { nullable: true, core: { ...schema, type: rest.length === 1 ? rest[0] : rest } };
  }
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const nullAt = branches.findIndex((b) => isObject(b) && b["type"] === "null" && Object.keys(b).length === 1);
    if (nullAt < 0) continue;
    const { [key]: _branches, ...siblings } = schema;
    return { nullable: true, core: { ...siblings, ...(branches[1 - nullAt] as JsonSchema) } };
  }
  return { nullable: false, core: schema };
}

function typeSet(s: JsonSchema): Set<string> | null {
  const type = s["type"];
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  if (isObject(s["properties"])) return new Set(["object"]);
  if (s["items"] !== undefined) return new Set(["array"]);
  return null;
}

/** Whether every type of `inner` is allowed by `outer` (an integer is a number). */
function covers(outer: Set<string>, inner: Set<string>): boolean {
  return [...inner].every((t) => outer.has(t) || (t === "integer" && outer.has("number")));
}

function valuesOf(s: JsonSchema): unknown[] | null {
  if (Array.isArray(s["enum"])) return s["enum"];
  if ("const" in s) return [s["const"]];
  return null;
}

function compareTypes(ctx: SchemaContext, ptr: string, o: JsonSchema, n: JsonSchema): boolean {
  const ot = typeSet(o);
  const nt = typeSet(n);
  const name = (t: Set<string> | null) => (t ? [...t].join("|") : "any");
  if (!ot && !nt) return true;
  if (!ot || !nt) {
    emit(
      ctx,
      `${ptr}/type`,
      ot ? "widened" : "narrowed",
      `type ${ot ? "no longer" : "now"} restricted (${name(ot)} -> ${name(nt)})`,
    );
    return true;
  }
  const narrower = covers(ot, nt);
  const wider = covers(nt, ot);
  if (narrower && wider) return true;
  if (!narrower && !wider) {
    emit(ctx, `${ptr}/type`, "changed", `type changed from ${name(ot)} to ${name(nt)}`);
    return false;
  }
  emit(
    ctx,
    `${ptr}/type`,
    narrower ? "narrowed" : "widened",
    `type ${narrower ? "narrowed" : "widened"} from ${name(ot)} to ${name(nt)}`,
  );
  return true;
}

function compareValues(ctx: SchemaContext, ptr: string, o: JsonSchema, n: JsonSchema): void {
  const ov = valuesOf(o);
  const nv = valuesOf(n);
  if (!ov && !nv) return;
  if (!ov || !nv) {
    emit(
      ctx,
      `${ptr}/enum`,
      ov ? "widened" : "narrowed",
      ov ? `no longer limited to ${show(ov)}` : `now limited to ${show(nv)}`,
    );
    return;
  }
  const has = (list: unknown[], v: unknown) => list.some((x) => show(x) === show(v));
  for (const v of ov)
    if (!has(nv, v)) emit(ctx, `${ptr}/enum/${String(v)}`, "narrowed", `enum value ${show(v)} removed`);
  for (const v of nv) if (!has(ov, v)) emit(ctx, `${ptr}/enum/${String(v)}`, "widened", `enum value ${show(v)} added`);
}

function compareConstraints(ctx: SchemaContext, ptr: string, o: JsonSchema, n: JsonSchema): void {
  for (const [keys, tighter] of [
    [MIN_KEYS, (a: number, b: number) => b > a],
    [MAX_KEYS, (a: number, b: number) => b < a],
  ] as const) {
    for (const key of keys) {
      const a = o[key];
      const b = n[key];
      if (a === b) continue;
      const at = `${ptr}/${key}`;
      if (typeof a !== "number") emit(ctx, at, "narrowed", `${key} ${show(b)} added`);
      else if (typeof b !== "number") emit(ctx, at, "widened", `${key} ${show(a)} removed`);
      else emit(ctx, at, tighter(a, b) ? "narrowed" : "widened", `${key} changed from ${a} to ${b}`);
    }
  }
  for (const key of ["format", "pattern"]) {
    const a = o[key];
    const b = n[key];
    if (a === b) continue;
    if (a === undefined) emit(ctx, `${ptr}/${key}`, "narrowed", `${key} ${show(b)} added`);
    else if (b === undefined) emit(ctx, `${ptr}/${key}`, "widened", `${key} ${show(a)} removed`);
    else emit(ctx, `${ptr}/${key}`, "changed", `${key} changed from ${show(a)} to ${show(b)}`);
  }
}

function compareObject(ctx: SchemaContext, ptr: string, o: JsonSchema, n: JsonSchema): void {
  const op = (isObject(o["properties"]) ? o["properties"] : {}) as Record<string, JsonSchema>;
  const np = (isObject(n["properties"]) ? n["properties"] : {}) as Record<string, JsonSchema>;
  const oreq = new Set(Array.isArray(o["required"]) ? o["required"] : []);
  const nreq = new Set(Array.isArray(n["required"]) ? n["required"] : []);
  const closed = n["additionalProperties"] === false;
  for (const name of Object.keys(op)) {
    const at = `${ptr}/properties${segment(name)}`;
    if (!(name in np)) {
      emitBy(
        ctx,
        at,
        { input: closed, output: true },
        `field ${name} removed${closed ? " (now refused as unknown)" : ""}`,
      );
      continue;
    }
    if (oreq.has(name) && !nreq.has(name))
      emitBy(ctx, at, { input: false, output: true }, `field ${name} no longer required (may be absent)`);
    if (!oreq.has(name) && nreq.has(name))
      emitBy(ctx, at, { input: true, output: false }, `field ${name} now required`);
    compareSchema(ctx, at, op[name]!, np[name]!);
  }
  for (const name of Object.keys(np)) {
    if (name in op) continue;
    const required = nreq.has(name);
    emitBy(
      ctx,
      `${ptr}/properties${segment(name)}`,
      { input: required, output: false },
      `${required ? "required" : "optional"} field ${name} added`,
    );
  }
  const oa = o["additionalProperties"];
  const na = n["additionalProperties"];
  if (oa !== false && na === false)
    emitBy(ctx, `${ptr}/additionalProperties`, { input: true, output: false }, "unknown fields now refused");
  else if (oa === false && na !== false)
    emitBy(ctx, `${ptr}/additionalProperties`, { input: false, output: false }, "unknown fields now allowed");
  else if (isObject(oa) && isObject(na)) compareSchema(ctx, `${ptr}/additionalProperties`, oa, na);
}

function compareRest(ctx: SchemaContext, ptr: string, o: JsonSchema, n: JsonSchema): void {
  const keys = new Set([...Object.keys(o), ...Object.keys(n)]);
  for (const key of keys) {
    if (HANDLED.has(key) || key.startsWith("x-")) continue;
    if (show(o[key]) !== show(n[key]))
      emit(ctx, `${ptr}/${key}`, "changed", `${key} changed (spec diff does not classify ${key}; treated as breaking)`);
  }
  for (const key of ["description", "default"]) {
    if (show(o[key]) !== show(n[key])) emit(ctx, `${ptr}/${key}`, "info", `${key} changed`);
  }
}

function resolve(schemas: Record<string, JsonSchema>, s: JsonSchema): { name: string | null; schema: JsonSchema } {
  const name = typeof s["$ref"] === "string" ? refName(s["$ref"]) : null;
  if (!name) return { name: null, schema: s };
  const { $ref: _ref, ...siblings } = s;
  return { name, schema: { ...(schemas[name] ?? {}), ...siblings } };
}

/**
 * Compares two schemas at `ptr` for the positions in `ctx`. References to the same named schema on both sides stop
 * here (the named schema is compared once, under /components/schemas); different names are compared structurally.
 */
export function compareSchema(ctx: SchemaContext, ptr: string, oldSchema: unknown, newSchema: unknown): void {
  if (!isObject(oldSchema) || !isObject(newSchema)) {
    // Boolean schemas and malformed values: only equality is known.
    if (show(oldSchema) !== show(newSchema)) emit(ctx, ptr, "changed", "schema changed (not an object schema)");
    return;
  }
  const o = splitNull(oldSchema);
  const n = splitNull(newSchema);
  if (o.nullable !== n.nullable)
    emit(ctx, ptr, o.nullable ? "narrowed" : "widened", o.nullable ? "null no longer allowed" : "may now be null");
  const or = resolve(ctx.old, o.core);
  const nr = resolve(ctx.new, n.core);
  if (or.name && or.name === nr.name) {
    compareRest(ctx, ptr, { description: o.core["description"] }, { description: n.core["description"] });
    return;
  }
  if (or.name || nr.name) {
    const pair = `${or.name}|${nr.name}`;
    if (ctx.seen.has(pair)) return;
    ctx.seen.add(pair);
  }
  if (!compareTypes(ctx, ptr, or.schema, nr.schema)) return;
  compareValues(ctx, ptr, or.schema, nr.schema);
  compareConstraints(ctx, ptr, or.schema, nr.schema);
  compareObject(ctx, ptr, or.schema, nr.schema);
  if (isObject(or.schema["items"]) && isObject(nr.schema["items"]))
    compareSchema(ctx, `${ptr}/items`, or.schema["items"], nr.schema["items"]);
  compareRest(ctx, ptr, or.schema, nr.schema);
}
