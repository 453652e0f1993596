import type { Change } from "./change.ts";

export interface Summary {
  breaking: number;
  compatible: number;
}

export function summarize(changes: Change[]): Summary {
  const breaking = changes.filter((c) => c.kind === "breaking").length;
  return { breaking, compatible: changes.length - breaking };
}

/** One line per change, breaking first (each group in diff order), then the summary line. */
export function formatText(changes: Change[], labels: { old: string; new: string }): string {
  const sorted = [...changes.filter((c) => c.kind === "breaking"), ...changes.filter((c) => c.kind === "compatible")];
  const lines = sorted.map((c) => `${c.kind === "breaking" ? "BREAKING  " : "compatible"} ${c.pointer}: ${c.message}`);
  const { breaking, compatible } = summarize(changes);
  const verdict = breaking > 0 ? "breaking" : "compatible";
  lines.push(
    `spec diff ${labels.old} -> ${labels.new}: ${breaking} breaking, ${compatible} compatible change(s): ${verdict}`,
  );
  return `${lines.join("\n")}\n`;
}

export function formatJson(changes: Change[], labels: { old: string; new: string }): string {
  return `${JSON.stringify({ old: labels.old, new: labels.new, ...summarize(changes), changes }, null, 2)}\n`;
}
