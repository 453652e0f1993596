import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import { type Diagnostics, pointer } from "./diagnostics.ts";
import type { JsonSchema } from "./model.ts";

interface MetaSchemaError {
  dataPath?: string;
  message?: string;
}

/** ajv 6's dataPath (`.methods[0].params[1]`, `['x-y']`) as a JSON pointer (`/methods/0/params/1`). */
export function dataPathToPointer(dataPath: string): string {
  const parts: string[] = [];
  const re = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g;
  for (const match of dataPath.matchAll(re)) parts.push(match[1] ?? match[2] ?? match[3]!.replace(/\\(.)/g, "$1"));
  return pointer(...parts);
}

/**
 * The library returns its ajv errors only inside the message text, as pretty-printed JSON after two header
 * lines; read them back so the diagnostic can point at the offending member.
 */
function errorsOf(message: string): MetaSchemaError[] {
  try {
    const errors: unknown = JSON.parse(message.split("\n").slice(2).join("\n"));
    return Array.isArray(errors) ? (errors as MetaSchemaError[]) : [];
  } catch {
    return [];
  }
}

/**
 * Checks one spec/services document against the OpenRPC meta-schema (@open-rpc/schema-utils-js), as every
 * OpenRPC tool would. One diagnostic per document, at the first (innermost) member ajv rejects.
 */
export function checkOpenrpcDocument(doc: JsonSchema, file: string, diags: Diagnostics): void {
  const result = validateOpenRPCDocument(doc as never);
  if (result === true) return;
  // ajv lists the innermost failure first; the rest are the alternatives (`oneOf` a $ref) that failed with it.
  const first = errorsOf(result.message)[0];
  if (!first) {
    diags.add("invalid-openrpc", file, "", result.message);
    return;
  }
  const ptr = dataPathToPointer(first.dataPath ?? "");
  diags.add("invalid-openrpc", file, ptr, `not a valid OpenRPC document: ${ptr || "the document"} ${first.message}`);
}
