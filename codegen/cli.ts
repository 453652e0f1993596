import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { progress } from "../tools/progress.ts";
import { type Diagnostic, formatDiagnostic } from "./diagnostics.ts";
import { checkGenerated, staleFiles } from "./drift.ts";
import { EMITTERS, generate } from "./generate.ts";
import { locate } from "./locate.ts";
import type { SpecModel } from "./model.ts";
import { writeFiles } from "./write.ts";

// `--root <dir>` runs on another project root (tests use scratch copies); default: this repository.
const rootArg = process.argv.indexOf("--root");
const root =
  rootArg > 0 && process.argv[rootArg + 1] ? resolve(process.argv[rootArg + 1]!) : join(import.meta.dirname, "..");
const check = process.argv.includes("--check");
const validateOnly = process.argv.includes("--validate");
const started = performance.now();

function refuse(diagnostics: Diagnostic[]): never {
  for (const d of locate(root, diagnostics)) console.error(formatDiagnostic(d));
  console.error(`codegen: ${diagnostics.length} error(s); nothing written`);
  process.exit(1);
}

function summary(model: SpecModel | null): string {
  const ms = Math.round(performance.now() - started);
  const counts = model
    ? `${model.services.length} services, ${model.records.length} records, ${model.methods.length} methods`
    : "";
  return `(${counts}) in ${ms} ms`;
}

if (check) {
  const { model, diagnostics, drifted } = await checkGenerated(root);
  if (diagnostics.length > 0) refuse(diagnostics);
  if (drifted.length > 0) {
    console.error(`codegen:check: generated code differs from spec/ in ${drifted.length} file(s):`);
    for (const p of drifted) console.error(`  ${p}`);
    console.error("run `npm run codegen` and commit the result");
    process.exit(1);
  }
  console.log(`codegen:check: generated/, docs/authorization.md and docs/reference/ match spec/ ${summary(model)}`);
} else {
  // One step per emitter, one for formatting, one for writing (on stderr; FZ_PROGRESS=0 silences it).
  const bar = validateOnly ? null : progress("codegen", Object.keys(EMITTERS).length + 2);
  const { model, files, diagnostics } = await generate(root, {
    validateOnly,
    onEmitted: (name) => bar?.tick(1, name),
  });
  if (diagnostics.length > 0) refuse(diagnostics);
  bar?.tick(1, "formatted");
  if (validateOnly) {
    console.log(`codegen: spec is valid ${summary(model)}`);
  } else {
    const stale = staleFiles(root, files);
    const written = writeFiles(root, files);
    for (const p of stale) rmSync(join(root, p));
    bar?.tick(1, "written");
    bar?.done(`${written.length} file(s) written`);
    console.log(`codegen: ${written.length} file(s) written, ${stale.length} removed ${summary(model)}`);
  }
}
