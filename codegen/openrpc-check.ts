import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { cacheKey, cacheRead, cacheWrite, packageSalt } from "./cache.ts";
import { type Diagnostic, pointer } from "./diagnostics.ts";
import type { JsonSchema } from "./model.ts";

export interface OpenrpcDocument {
  /** Path relative to the project root, as diagnostics name it. */
  file: string;
  doc: JsonSchema;
}

interface Failure {
  file: string;
  dataPath: string;
  message: string;
}

/** ajv 6's dataPath (`.methods[0].params[1]`, `['x-y']`) as a JSON pointer (`/methods/0/params/1`). */
export function dataPathToPointer(dataPath: string): string {
  const parts: string[] = [];
  const re = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g;
  for (const match of dataPath.matchAll(re)) parts.push(match[1] ?? match[2] ?? match[3]!.replace(/\\(.)/g, "$1"));
  return pointer(...parts);
}

/**
 * Checks documents against the OpenRPC meta-schema with @open-rpc/schema-utils-js, as every OpenRPC tool would,
 * on a worker thread (the library builds a fresh ajv per document). One `invalid-openrpc` per rejected document,
 * at the first (innermost) member ajv rejects.
 */
export function checkOpenrpcDocuments(all: OpenrpcDocument[]): Promise<Diagnostic[]> {
  // A document that passed before (the same text, the same meta-schema) passes again: only the others are checked.
  const keyed = all.map((d) => ({ d, key: cacheKey(checkSalt(), JSON.stringify(d.doc)) }));
  const unchecked = keyed.filter(({ key }) => cacheRead("openrpc-valid", key) === null);
  const docs = unchecked.map(({ d }) => d);
  if (docs.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    // Plain JavaScript: the worker needs none of the parent's loaders (tsx, vitest).
    const worker = new Worker(new URL("./openrpc-worker.mjs", import.meta.url), { workerData: docs, execArgv: [] });
    worker.once("message", (failures: Failure[]) => {
      const failed = new Set(failures.map((f) => f.file));
      for (const { d, key } of unchecked) if (!failed.has(d.file)) cacheWrite("openrpc-valid", key, "valid");
      resolve(
        failures.map(({ file, dataPath, message }) => {
          const ptr = dataPathToPointer(dataPath);
          return {
            code: "invalid-openrpc" as const,
            severity: "error" as const,
            file,
            pointer: ptr,
            message: `not a valid OpenRPC document: ${ptr || "the document"} ${message}`,
          };
        }),
      );
    });
    worker.once("error", reject);
  });
}

let salt: string | null = null;
/** The meta-schema and validator versions a pass was decided with, and the worker's own rules. */
function checkSalt(): string {
  if (salt === null) {
    const worker = readFileSync(new URL("./openrpc-worker.mjs", import.meta.url), "utf8");
    salt = `${packageSalt("@open-rpc/schema-utils-js", "@open-rpc/meta-schema")} ${cacheKey("", worker)}`;
  }
  return salt;
}
