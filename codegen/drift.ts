import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { Diagnostic } from "./diagnostics.ts";
import { generate } from "./generate.ts";
import type { SpecModel } from "./model.ts";
import { driftedFiles, type GeneratedFile } from "./write.ts";

function listFiles(root: string, dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? listFiles(root, join(dir, e.name)) : [relative(root, join(dir, e.name))],
    );
  } catch {
    return [];
  }
}

/** Directories codegen owns whole: a file there that codegen no longer produces is stale. */
const OWNED_DIRS = ["generated", "clients/ts/src", "docs/reference"];

/** Files under generated/, the client's clients/ts/src and docs/reference/ that codegen no longer produces. */
export function staleFiles(root: string, files: GeneratedFile[]): string[] {
  const produced = new Set(files.map((f) => f.path));
  return OWNED_DIRS.flatMap((dir) => listFiles(root, join(root, dir))).filter((p) => !produced.has(p));
}

export interface CheckResult {
  model: SpecModel | null;
  diagnostics: Diagnostic[];
  /** Paths that differ from what codegen produces, then stray files under generated/; empty when in sync. */
  drifted: string[];
}

/** `npm run codegen:check`: regenerates in memory and compares with the files on disk under `root`. */
export async function checkGenerated(root: string): Promise<CheckResult> {
  const { model, files, diagnostics } = await generate(root);
  if (diagnostics.length > 0) return { model, diagnostics, drifted: [] };
  return { model, diagnostics, drifted: [...driftedFiles(root, files), ...staleFiles(root, files)] };
}
