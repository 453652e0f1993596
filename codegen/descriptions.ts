import { type Diagnostics, pointer } from "./diagnostics.ts";

/**
 * The served OpenRPC document is the contract client teams and agents read: its text speaks of behaviour, never of
 * this repository's files (issue 32 item 6). A `summary`, `description` or `title` naming a path under src/, test/,
 * codegen/ or generated/, or a file under tools/ or docs/ (`tools/list` is an MCP method, not a file), is
 * `description-cites-source`: say what the rule is instead.
 */
const SOURCE_PATH =
  /(?<![A-Za-z0-9_/.-])(?:(?:src|test|codegen|generated)\/[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*|(?:tools|docs)\/[A-Za-z0-9_./-]*\.(?:ts|mjs|cjs|js|md|json)\b)/;
const TEXT_KEYS = new Set(["summary", "description", "title"]);

export function checkDescriptions(json: unknown, file: string, diags: Diagnostics, at = ""): void {
  if (Array.isArray(json)) {
    for (const [i, item] of json.entries()) checkDescriptions(item, file, diags, `${at}${pointer(i)}`);
    return;
  }
  if (json === null || typeof json !== "object") return;
  for (const [key, value] of Object.entries(json)) {
    const ptr = `${at}${pointer(key)}`;
    if (TEXT_KEYS.has(key) && typeof value === "string") {
      const path = SOURCE_PATH.exec(value)?.[0];
      if (path) {
        diags.add(
          "description-cites-source",
          file,
          ptr,
          `${key} names the repository file "${path}"; the served contract describes behaviour, not source files`,
        );
      }
    } else checkDescriptions(value, file, diags, ptr);
  }
}
