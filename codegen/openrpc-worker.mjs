// Checks OpenRPC documents against the meta-schema on a worker thread, so emitting goes on meanwhile.
// Plain JavaScript: a worker does not go through the TypeScript loader. Input and output: see openrpc-check.ts.
import { parentPort, workerData } from "node:worker_threads";
import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";

/**
 * The library returns its ajv errors only inside the message text, as pretty-printed JSON after two header
 * lines; read them back. ajv lists the innermost failure first; the rest are alternatives that failed with it.
 */
function firstError(message) {
  try {
    const errors = JSON.parse(message.split("\n").slice(2).join("\n"));
    return Array.isArray(errors) && errors[0] ? errors[0] : null;
  } catch {
    return null;
  }
}

const failures = [];
for (const { file, doc } of workerData) {
  try {
    const result = validateOpenRPCDocument(doc);
    if (result === true) continue;
    const first = firstError(result.message);
    failures.push({ file, dataPath: first?.dataPath ?? "", message: first?.message ?? result.message });
  } catch (err) {
    failures.push({ file, dataPath: "", message: err instanceof Error ? err.message : String(err) });
  }
}
parentPort.postMessage(failures);
