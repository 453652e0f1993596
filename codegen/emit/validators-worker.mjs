// Compiles the ajv standalone validators on a worker thread, so the other emitters run meanwhile.
// Plain JavaScript: a worker does not go through the TypeScript loader. Input and output: see validators.ts.
import { parentPort, workerData } from "node:worker_threads";
import { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import formatsPlugin from "ajv-formats";

/**
 * `inlineRefs: false` compiles each named schema once as its own function instead of inlining it at every use,
 * and `optimize: false` skips ajv's code-simplification pass: together they halve compile time at the same output
 * size. `lines: true` keeps one statement per line, so a spec change shows up as a readable diff.
 */
function compile({ keywords, schemas, exports }) {
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
  return standaloneModule.default(ajv, exports);
}

try {
  parentPort.postMessage({ code: compile(workerData) });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.stack : String(err) });
}
