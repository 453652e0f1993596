import { readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { formatDiagnostic } from "./diagnostics.ts";
import { generate } from "./generate.ts";
import { driftedFiles, writeFiles } from "./write.ts";

const root = join(import.meta.dirname, "..");
const check = process.argv.includes("--check");
const validateOnly = process.argv.includes("--validate");

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? listFiles(join(dir, e.name)) : [relative(root, join(dir, e.name))],
    );
  } catch {
    return [];
  }
}

const started = performance.now();
const { model, files, diagnostics } = await generate(root, { validateOnly });
if (diagnostics.length > 0) {
  for (const d of diagnostics) console.error(formatDiagnostic(d));
  console.error(`codegen: ${diagnostics.length} error(s); nothing written`);
  process.exit(1);
}
const produced = new Set(files.map((f) => f.path));
const stale = validateOnly ? [] : listFiles(join(root, "generated")).filter((p) => !produced.has(p));
const ms = Math.round(performance.now() - started);
const summary = model
  ? `${model.services.length} services, ${model.records.length} records, ${model.methods.length} methods`
  : "";
if (validateOnly) {
  console.log(`codegen: spec is valid (${summary}) in ${ms} ms`);
} else if (check) {
  const drifted = [...driftedFiles(root, files), ...stale];
  if (drifted.length > 0) {
    console.error(`codegen:check: generated code differs from spec/ in ${drifted.length} file(s):`);
    for (const p of drifted) console.error(`  ${p}`);
    console.error("run `npm run codegen` and commit the result");
    process.exit(1);
  }
  console.log(`codegen:check: generated/ matches spec/ (${summary}) in ${ms} ms`);
} else {
  const written = writeFiles(root, files);
  for (const p of stale) rmSync(join(root, p));
  console.log(`codegen: ${written.length} file(s) written, ${stale.length} removed (${summary}) in ${ms} ms`);
}
