import { parseArgs } from "node:util";
import { formatDiagnostic } from "../../codegen/diagnostics.ts";
import { diffContracts } from "../spec-diff/diff.ts";
import { formatJson, formatText, summarize } from "../spec-diff/report.ts";
import { loadContract } from "../spec-diff/sources.ts";

export const SPEC_USAGE =
  "spec diff <old> <new> [--json]                       classify API changes (files, spec dirs, git refs, URLs)";

/**
 * `spec diff <old> <new> [--json]`: exit 1 when any change is breaking, 0 otherwise, 2 on bad usage or a side that
 * cannot be read (its diagnostics name the file and JSON pointer).
 */
export async function specCommand(args: string[], cwd = process.cwd()): Promise<number> {
  try {
    return await specDiff(args, cwd);
  } catch (err) {
    // Exit 1 means "breaking": an unexpected failure must not look like a verdict.
    console.error(`spec diff: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
}

async function specDiff(args: string[], cwd: string): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (err) {
    console.error(`spec: ${(err as Error).message}\nusage: npm run cli -- ${SPEC_USAGE}`);
    return 2;
  }
  const [sub, oldArg, newArg, ...extra] = parsed.positionals;
  if (sub !== "diff" || !oldArg || !newArg || extra.length > 0) {
    console.error(`usage: npm run cli -- ${SPEC_USAGE}`);
    return 2;
  }
  const [old, next] = await Promise.all([loadContract(oldArg, cwd), loadContract(newArg, cwd)]);
  let unreadable = false;
  for (const [arg, side] of [
    [oldArg, old],
    [newArg, next],
  ] as const) {
    if (side.contract) continue;
    unreadable = true;
    for (const d of side.diags.items) console.error(formatDiagnostic(d));
    console.error(`spec diff: cannot read ${arg} (${side.kind}): ${side.diags.items.length} error(s)`);
  }
  if (unreadable || !old.contract || !next.contract) return 2;
  const changes = diffContracts(old.contract, next.contract);
  const labels = { old: oldArg, new: newArg };
  process.stdout.write(parsed.values.json ? formatJson(changes, labels) : formatText(changes, labels));
  return summarize(changes).breaking > 0 ? 1 : 0;
}

function parse(args: string[]) {
  return parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean", default: false } } });
}
