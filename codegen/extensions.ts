import { type Diagnostics, pointer } from "./diagnostics.ts";
import type { JsonSchema } from "./model.ts";

/**
 * The `x-` extension keys codegen knows, by where they sit in the spec, each with a check of its value's shape.
 * Anything else is refused: an unknown key is `unknown-extension` (with "did you mean" for a near miss), a value of
 * the wrong shape `invalid-extension-value`. Keys whose parser already validates the value with its own code are
 * tabled with `parsedBy` (the check here is then only the part that parser does not do).
 * Names, params, fields and variants an extension refers to are checked with the whole model (check.ts, records.ts).
 */

/** Where an extension key sits: each has its own set of known keys (`other`: anywhere else). */
export type ExtensionPlace = "service" | "method" | "record" | "property" | "other";

export const PLACE_NAMES: Record<ExtensionPlace, string> = {
  service: "a service document (spec/services)",
  method: "a method",
  record: "a record (spec/records)",
  property: "a record's property",
  other: "anywhere else (params, results, components, shared schemas, enums, a property's own schemas)",
};

/** One problem below the key's value; `at` extends the key's JSON pointer. */
interface Problem {
  kind: "unknown" | "invalid";
  at: (string | number)[];
  message: string;
}

/** Checks a value; `label` names it in messages (`x-mcp.readOnly`). */
type Check = (value: unknown, label: string) => Problem[];

export interface Extension {
  /** What the value must be, for docs and messages. */
  shape: string;
  check: Check;
  /** The parser that validates the value further (its own diagnostic codes). */
  parsedBy?: string;
}

// ---- value checks ----

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

const invalid = (label: string, shape: string, value: unknown, at: (string | number)[] = []): Problem[] => [
  { kind: "invalid", at, message: `${label} must be ${shape}, not ${describe(value)}` },
];

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

const anything: Check = () => [];
const string: Check = (v, label) => (typeof v === "string" && v !== "" ? [] : invalid(label, "a non-empty string", v));
const boolean: Check = (v, label) => (typeof v === "boolean" ? [] : invalid(label, "true or false", v));

const stringList: Check = (v, label) => {
  if (!Array.isArray(v)) return invalid(label, "an array of strings", v);
  return v.flatMap((item, i) => string(item, `${label}[${i}]`).map((p) => ({ ...p, at: [i] })));
};

function oneOf(values: readonly string[]): Check {
  return (v, label) => {
    if (typeof v === "string" && values.includes(v)) return [];
    const hint = typeof v === "string" ? didYouMean(v, values) : "";
    const shown = typeof v === "string" ? JSON.stringify(v) : describe(v);
    return [{ kind: "invalid", at: [], message: `${label} ${shown} is not one of ${values.join(", ")}${hint}` }];
  };
}

/** Either check, chosen by the value's type: a string or an object (`x-audit`, `x-caller-binding`). */
function stringOr(objectCheck: Check, shape: string): Check {
  return (v, label) => {
    if (typeof v === "string") return string(v, label);
    if (isObject(v)) return objectCheck(v, label);
    return invalid(label, shape, v);
  };
}

/** An object with exactly these keys (those marked required present), each value checked. */
function fields(known: Record<string, Check>, required: readonly string[] = []): Check {
  return (v, label) => {
    if (!isObject(v)) return invalid(label, `an object with ${Object.keys(known).join(", ")}`, v);
    const problems: Problem[] = [];
    for (const key of required) {
      if (v[key] === undefined) problems.push({ kind: "invalid", at: [], message: `${label} needs "${key}"` });
    }
    for (const [key, value] of Object.entries(v)) {
      const check = known[key];
      if (check) {
        problems.push(...check(value, `${label}.${key}`).map((p) => ({ ...p, at: [key, ...p.at] })));
      } else {
        problems.push({ kind: "unknown", at: [key], message: unknownKeyMessage(key, label, Object.keys(known)) });
      }
    }
    return problems;
  };
}

/** A map from any name to a checked value (`x-errors`: error type -> variants). */
function mapOf(check: Check, shape: string): Check {
  return (v, label) => {
    if (!isObject(v)) return invalid(label, shape, v);
    return Object.entries(v).flatMap(([key, value]) =>
      check(value, `${label}.${key}`).map((p) => ({ ...p, at: [key, ...p.at] })),
    );
  };
}

/** `x-unique`: fields or arrays of fields. */
const uniqueList: Check = (v, label) => {
  if (!Array.isArray(v)) return invalid(label, "an array of fields or arrays of fields", v);
  return v.flatMap((item, i) =>
    (Array.isArray(item) ? stringList(item, `${label}[${i}]`) : string(item, `${label}[${i}]`)).map((p) => ({
      ...p,
      at: [i, ...p.at],
    })),
  );
};

/** Validated by the named parser alone (its own codes); the table only records that the key exists. */
const parsed = (shape: string, parsedBy: string): Extension => ({ shape, check: anything, parsedBy });

const AUDIT = fields({ action: string, targetType: string, targetParam: string }, ["action"]);
export const CALLER_BINDING_KINDS = ["user", "resident", "partner"] as const;
const CALLER_BINDING = fields({ param: string, kind: oneOf(CALLER_BINDING_KINDS), adminMayOverride: boolean }, [
  "param",
]);

/** Every known extension key, by place. docs/spec-format.md describes each. */
export const EXTENSIONS: Record<ExtensionPlace, Record<string, Extension>> = {
  service: {
    "x-domain": { shape: "a domain of spec/platform.json", check: string },
    "x-error-types": { shape: "an array of error types", check: stringList },
    "x-alias": { shape: "a second method prefix", check: string },
  },
  method: {
    "x-auth": parsed("a mode, required", "services.ts parseAuth (missing-auth, invalid-auth)"),
    "x-mcp": {
      shape: "{ readOnly, destructive, idempotent, amountParam, name, agentTool }",
      check: fields({
        readOnly: boolean,
        destructive: boolean,
        idempotent: boolean,
        amountParam: string,
        name: string,
        agentTool: boolean,
      }),
    },
    "x-errors": { shape: "error type -> variants", check: mapOf(stringList, "an object of error type -> variants") },
    "x-audit": { shape: "an AuditAction or { action, targetType, targetParam }", check: stringOr(AUDIT, "an object") },
    "x-password": { shape: "a param name", check: string },
    "x-caller-binding": {
      shape: "a param name or { param, kind, adminMayOverride }",
      check: stringOr(CALLER_BINDING, "a param name or an object"),
    },
    "x-internal": { shape: "true or false", check: boolean },
    "x-target": parsed(
      "{ record, param, field, role, operable, foreignResident, proxy, adminBypass, party, optional }",
      "targets.ts parseTarget (invalid-target)",
    ),
    "x-acts-as": parsed("a param or { param | caller, action, role }", "targets.ts parseActsAs (invalid-acts-as)"),
    "x-visibility": parsed("{ kind, param } or { kind, items }", "visibility.ts parseVisibility (invalid-visibility)"),
    // Added in parallel (issue 27's other parts): only the outer shape here, its parser validates it fully.
    "x-spends": { shape: "true or false", check: boolean },
  },
  record: {
    "x-domain": { shape: "a domain of spec/platform.json", check: string },
    "x-indexed": { shape: "an array of fields", check: stringList },
    "x-crud": parsed("none | read | owner | admin", "records.ts buildRecord (invalid-crud-mode)"),
    "x-managed": { shape: "an array of fields", check: stringList },
    "x-secret": { shape: "an array of fields", check: stringList },
    "x-private": { shape: "an array of fields", check: stringList },
    "x-crud-scope": parsed("{ field: scalar }", "records.ts crudScope (invalid-crud-scope)"),
    "x-append-only": { shape: "true or false", check: boolean },
    "x-owner": {
      shape: "a field or an array of fields",
      check: (v, label) => (typeof v === "string" ? string(v, label) : stringList(v, label)),
    },
    "x-unique": { shape: "an array of fields or arrays of fields", check: uniqueList },
    "x-served": { shape: "true or false", check: boolean },
    "x-unique-where": parsed("[{ name, fields, where }]", "records.ts partialUniques (invalid-unique-where)"),
    "x-company": parsed("a field or { field, resident }", "targets.ts parseCompanyLink (invalid-company-link)"),
  },
  property: {
    "x-money": parsed("true", "records.ts numericColumn (invalid-money, numeric-not-number, numeric-conflict)"),
    "x-decimal": parsed("[precision, scale]", "records.ts numericColumn (invalid-decimal, numeric-not-number)"),
  },
  other: {
    // A property of a shared schema (codegen/secrets.ts): null in every result that holds it.
    "x-secret": { shape: "true", check: (v, label) => (v === true ? [] : invalid(label, "true", v)) },
  },
};

// ---- near misses ----

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

const letters = (s: string) => [...s.toLowerCase()].sort().join("");

/** The closest candidate within Levenshtein distance 2 (case-insensitive) or with the same letters, if any. */
export function nearMiss(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = levenshtein(word.toLowerCase(), candidate.toLowerCase());
    const close = distance <= 2 || letters(word) === letters(candidate);
    if (close && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "x"?` for a near miss, else "". */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearMiss(word, candidates);
  return near ? `; did you mean "${near}"?` : "";
}

function unknownKeyMessage(key: string, label: string, known: string[]): string {
  const hint = didYouMean(key, known);
  return `unknown key "${key}" in ${label}${hint || `; known: ${known.join(", ")}`}`;
}

function unknownExtensionMessage(key: string, place: ExtensionPlace): string {
  const known = Object.keys(EXTENSIONS[place]);
  const elsewhere = (Object.keys(EXTENSIONS) as ExtensionPlace[]).filter((p) => EXTENSIONS[p][key]);
  const belongs =
    elsewhere.length > 0 ? `; ${key} belongs on ${elsewhere.map((p) => PLACE_NAMES[p]).join(" or ")}` : "";
  const base = `unknown extension "${key}" on ${PLACE_NAMES[place]}`;
  const hint = didYouMean(key, known);
  return `${base}${hint || belongs || `; known: ${known.join(", ")}`}`;
}

// ---- the walk ----

/** JSON Schema keywords whose value is data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(["default", "enum", "const", "examples", "example"]);
/** Keywords whose value maps names to schemas: the names are not keywords. */
const NAME_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies", "schemas"]);

interface Walk {
  file: string;
  diags: Diagnostics;
}

function checkKey(place: ExtensionPlace, key: string, value: unknown, ptr: string, walk: Walk): void {
  const extension = EXTENSIONS[place][key];
  if (!extension) {
    walk.diags.add("unknown-extension", walk.file, ptr, unknownExtensionMessage(key, place));
    return;
  }
  for (const problem of extension.check(value, key)) {
    const at = `${ptr}${problem.at.length > 0 ? pointer(...problem.at) : ""}`;
    if (problem.kind === "unknown") walk.diags.add("unknown-extension", walk.file, at, problem.message);
    else walk.diags.add("invalid-extension-value", walk.file, at, problem.message);
  }
}

/**
 * Checks the `x-` keys of an object (at `place`) and of everything below it (at `other`, except a record's
 * `properties`, whose values are at `property`). An extension's own value is left to its check.
 */
function walkNode(node: unknown, ptr: string, place: ExtensionPlace, walk: Walk): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      walkNode(item, `${ptr}/${i}`, "other", walk);
    });
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${ptr}${pointer(key)}`;
    if (key.startsWith("x-")) checkKey(place, key, value, at, walk);
    else if (DATA_KEYWORDS.has(key)) continue;
    else if (NAME_MAPS.has(key) && isObject(value)) {
      const inner = place === "record" && key === "properties" ? "property" : "other";
      for (const [name, schema] of Object.entries(value)) walkNode(schema, `${at}${pointer(name)}`, inner, walk);
    } else walkNode(value, at, "other", walk);
  }
}

/** What a spec file is, for where its keys sit. */
export type SpecFileKind = "service" | "record" | "other";

/** Reports every unknown `x-` key and every extension value of the wrong shape in one spec file. */
export function checkExtensions(json: JsonSchema, kind: SpecFileKind, file: string, diags: Diagnostics): void {
  const walk: Walk = { file, diags };
  if (kind === "record") {
    walkNode(json, "", "record", walk);
    return;
  }
  if (kind === "other") {
    walkNode(json, "", "other", walk);
    return;
  }
  for (const [key, value] of Object.entries(json)) {
    const at = pointer(key);
    if (key.startsWith("x-")) checkKey("service", key, value, at, walk);
    else if (key === "methods" && Array.isArray(value)) {
      value.forEach((method, i) => {
        walkNode(method, pointer(key, i), "method", walk);
      });
    } else walkNode(value, at, "other", walk);
  }
}
