import { Worker } from "node:worker_threads";
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
export function checkOpenrpcDocuments(docs: OpenrpcDocument[]): Promise<Diagnostic[]> {
  if (docs.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    // Plain JavaScript: the worker needs none of the parent's loaders (tsx, vitest).
    const worker = new Worker(new URL("./openrpc-worker.mjs", import.meta.url), { workerData: docs, execArgv: [] });
    worker.once("message", (failures: Failure[]) => {
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
