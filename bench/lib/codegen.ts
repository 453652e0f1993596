import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Spread, spread } from "./report.ts";

/**
 * Codegen in `npm run bench` (issue 32 item 4): `npm run codegen` as a designer runs it, on a scratch copy of the
 * project (spec/, src/services, and what codegen wrote), in a fresh process each time: the whole spec regenerated
 * with nothing changed, and a one-method change (a method added to, then removed from, a service, alternately). The
 * baseline, in the same run, is the same process start doing nothing (tsx on an empty module), so the ratio says
 * how many process starts codegen costs.
 */

const REPO = join(import.meta.dirname, "..", "..");
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const COPIED = ["spec", "src/services", "generated", "docs/reference", "docs/authorization.md", "clients/ts"];
const SERVICE = "spec/services/tax-service.openrpc.json";

export interface CodegenFigures {
  /** Wall time of the process, ms. */
  wholeMs: Spread;
  oneMethodMs: Spread;
  /** Codegen's own figure (from reading spec/ to the last file written), ms. */
  wholeInternalMs: Spread;
  oneMethodInternalMs: Spread;
  baselineMs: Spread;
  /** Files written by a one-method change (median). */
  oneMethodFilesWritten: number;
  ratios: { whole: number; oneMethod: number };
}

function timed(args: string[], cwd: string): { ms: number; internalMs: number; written: number } {
  const started = performance.now();
  const run = spawnSync(TSX, args, { cwd, encoding: "utf8", env: { ...process.env, FZ_PROGRESS: "0" } });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`codegen bench: ${args.join(" ")} failed:\n${run.stderr}`);
  const internal = /in (\d+) ms\)?\s*$/.exec(run.stdout.trim());
  const written = /codegen: (\d+) file\(s\) written/.exec(run.stdout);
  return { ms: Math.round(ms), internalMs: Number(internal?.[1] ?? 0), written: Number(written?.[1] ?? 0) };
}

/** The service file with one more read method (a copy of its first, renamed), or as it was. */
function withExtraMethod(original: string, add: boolean): string {
  if (!add) return original;
  const doc = JSON.parse(original);
  const first = doc.methods[0];
  const name = `${first.name}_bench_copy`;
  doc.methods.splice(1, 0, { ...first, name, "x-mcp": { ...first["x-mcp"], name: `freezone_bench_copy_method` } });
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function codegenBench(runs: number, log: (line: string) => void): CodegenFigures {
  const root = mkdtempSync(join(tmpdir(), "bench-codegen-"));
  try {
    for (const path of COPIED) cpSync(join(REPO, path), join(root, path), { recursive: true });
    const empty = join(root, "empty.mjs");
    writeFileSync(empty, "");
    const cli = ["codegen/cli.ts", "--root", root];
    const whole: ReturnType<typeof timed>[] = [];
    const one: ReturnType<typeof timed>[] = [];
    const baseline: number[] = [];
    const service = join(root, SERVICE);
    const original = readFileSync(service, "utf8");
    timed(cli, REPO); // the scratch tree as this codegen writes it
    for (let i = 0; i < runs; i++) {
      baseline.push(timed([empty], REPO).ms);
      whole.push(timed(cli, REPO));
      writeFileSync(service, withExtraMethod(original, true));
      one.push(timed(cli, REPO));
      writeFileSync(service, original);
      one.push(timed(cli, REPO));
      const last = one.at(-1)!;
      log(
        `codegen ${i + 1}/${runs}: whole spec ${whole.at(-1)!.ms} ms, one method added ${one.at(-2)!.ms} ms / removed ${last.ms} ms (${last.written} files written), process start ${baseline.at(-1)} ms`,
      );
    }
    const figures = {
      wholeMs: spread(whole.map((r) => r.ms)),
      oneMethodMs: spread(one.map((r) => r.ms)),
      wholeInternalMs: spread(whole.map((r) => r.internalMs)),
      oneMethodInternalMs: spread(one.map((r) => r.internalMs)),
      baselineMs: spread(baseline),
      oneMethodFilesWritten: spread(one.map((r) => r.written)).median,
    };
    const ratio = (a: number) => Math.round((10 * a) / Math.max(1, figures.baselineMs.median)) / 10;
    return {
      ...figures,
      ratios: { whole: ratio(figures.wholeMs.median), oneMethod: ratio(figures.oneMethodMs.median) },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
