// Compiles the ajv standalone validators on a worker thread, so the other emitters run meanwhile.
// Plain JavaScript: a worker does not go through the TypeScript loader. Input and output: see validators.ts.
import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import formatsPlugin from "ajv-formats";

/**
 * `inlineRefs: false` compiles each named schema once as its own function instead of inlining it at every use,
 * and `optimize: false` skips ajv's code-simplification pass: together they halve compile time at the same output
 * size. `lines: true` keeps one statement per line, so a spec change shows up as a readable diff.
 */
function compile({ keywords, schemas, exports, specId }) {
  const ajv = new Ajv({
    strict: true,
    allErrors: false,
    allowUnionTypes: true,
    inlineRefs: false,
    code: { source: true, esm: false, lines: true, optimize: false },
  });
  formatsPlugin.default(ajv);
  ajv.addKeyword({ keyword: keywords });
  for (const schema of schemas) ajv.addSchema(schema);
  return stableNames(ajv, standaloneModule.default(ajv, exports), specId);
}

/**
 * ajv numbers its functions and constants by one counter over the whole compilation (`validate21`, `schema6`), so
 * one new method renumbered the rest of the file (issue 32 item 1). Here every name is derived from what it is:
 * a validator from the schema it checks (`validate<Params or Result name>`, and `validate<Root>$<Definition>` for a
 * definition compiled for one root), a constant from a digest of its value (`schema_<sha>`; equal constants are
 * one). Adding a method then adds lines and changes none.
 */
function stableNames(ajv, code, specId) {
  const renames = new Map();
  const taken = new Set();
  const claim = (old, wanted) => {
    if (!old || renames.has(old)) return;
    let name = wanted;
    for (let i = 2; taken.has(name); i++) name = `${wanted}_${i}`;
    taken.add(name);
    renames.set(old, name);
  };
  const ident = (text) => text.replace(/[^A-Za-z0-9_]/g, "_");
  const rootLabel = (id) =>
    id === specId ? "Spec" : ident(id.replace(/^freezone:params:/, "").replace(/^freezone:set:(.*)$/, "$1SetData"));
  const refLabel = (ref) => {
    const [base, pointer = ""] = ref.split("#");
    const tail = pointer
      .replace(/^\/definitions\//, "")
      .split("/")
      .filter(Boolean)
      .map(ident)
      .join("$");
    return base === specId ? tail : [rootLabel(base), tail].filter(Boolean).join("$");
  };
  const nameOf = (env) => (env?.schemaEnv ?? env)?.validateName?.str;
  const byKey = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  const roots = Object.entries(ajv.schemas)
    .filter(([id]) => id.startsWith("freezone:"))
    .sort(byKey);
  for (const [id, env] of roots) claim(nameOf(env), `validate${rootLabel(id)}`);
  for (const [ref, env] of Object.entries(ajv.refs).sort(byKey)) {
    if (typeof env === "object" && ref.startsWith("freezone:")) claim(nameOf(env), `validate${refLabel(ref)}`);
  }
  for (const [id, env] of roots) {
    for (const [ref, sub] of Object.entries(env.refs ?? {}).sort(byKey)) {
      claim(nameOf(sub), `validate${rootLabel(id)}$${refLabel(ref)}`);
    }
  }
  // Constants: named by their value; a second constant of the same value is dropped (they are only read).
  const kept = [];
  const seen = new Set();
  for (const line of code.split("\n")) {
    const constant = /^const ((?:schema|pattern|formats|func)\d+) = (.*);$/.exec(line);
    if (constant) {
      const kind = constant[1].replace(/\d+$/, "");
      const name = `${kind}_${createHash("sha256").update(constant[2]).digest("hex").slice(0, 12)}`;
      renames.set(constant[1], name);
      if (seen.has(name)) continue;
      seen.add(name);
    }
    kept.push(line);
  }
  const unnamed = new Set();
  const renamed = kept.join("\n").replace(/\b(?:validate|schema|pattern|formats|func)\d+\b/g, (old) => {
    const name = renames.get(old);
    if (name === undefined) unnamed.add(old);
    return name ?? old;
  });
  if (unnamed.size > 0) throw new Error(`no stable name for ${[...unnamed].slice(0, 5).join(", ")}`);
  return renamed;
}

try {
  parentPort.postMessage({ code: compile(workerData) });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.stack : String(err) });
}
