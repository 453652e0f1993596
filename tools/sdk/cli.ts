/**
 * `npm run sdk`: writes the typed client package clients/ts/ from spec/ (the same files `npm run codegen` writes and
 * `npm run codegen:check` compares). `npm run sdk -- --from <url|file> --out <dir> [--name <package>]` generates a
 * client from any OpenRPC document instead: a deployed server's `/api/v1/openrpc.json`, or a file.
 */
import { join, resolve } from "node:path";
import { formatDiagnostic } from "../../codegen/diagnostics.ts";
import { SDK_DIR, SDK_PACKAGE, sdkModel } from "../../codegen/emit/sdk.ts";
import { sdkFiles } from "../../codegen/emit/sdk-files.ts";
import { type SdkModel, sdkModelFromOpenrpc } from "../../codegen/emit/sdk-model.ts";
import { loadSpec } from "../../codegen/load.ts";
import { writeFiles } from "../../codegen/write.ts";
import { progress } from "../progress.ts";
import { readDocument } from "./source.ts";

const ROOT = join(import.meta.dirname, "..", "..");
/** Where the user ran `npm run sdk` (npm runs scripts in the package root): relative paths start there. */
const CWD = process.env["INIT_CWD"] ?? process.cwd();

function option(name: string): string | null {
  const i = process.argv.indexOf(name);
  const value = i > 0 ? process.argv[i + 1] : undefined;
  return value && !value.startsWith("--") ? value : null;
}

function fail(message: string): never {
  console.error(`sdk: ${message}`);
  process.exit(1);
}

const from = option("--from");
const out = option("--out");
const name = option("--name") ?? SDK_PACKAGE;
if (process.argv.includes("--from") && !from) fail("--from needs a URL or a file");
if (from && !out) fail("--from needs --out <dir> (clients/ts/ is generated from spec/ only)");

const steps = progress("sdk", 4);
let model: SdkModel;
if (from) {
  const source = /^https?:\/\//.test(from) ? from : resolve(CWD, from);
  const doc = await readDocument(source).catch((err: Error) => fail(`cannot read ${from}: ${err.message}`));
  steps.tick(1, "document read");
  try {
    model = sdkModelFromOpenrpc(doc);
  } catch (err) {
    fail(`${from}: ${(err as Error).message}`);
  }
} else {
  const { model: spec, diags } = loadSpec(join(ROOT, "spec"));
  if (!spec || diags.items.length > 0) {
    for (const d of diags.items) console.error(formatDiagnostic(d));
    fail("spec/ is invalid; nothing written");
  }
  steps.tick(1, "spec read");
  model = sdkModel(spec);
}
steps.tick(1, `${model.methods.length} methods`);
const target = from ? { dir: ".", name, source: from } : { dir: SDK_DIR, name, source: "spec/" };
const files = await sdkFiles(model, target);
steps.tick(1, "types compiled");
const base = from ? resolve(CWD, out!) : ROOT;
const written = writeFiles(base, files);
steps.tick(1, "written");
steps.done(`${written.length} of ${files.length} file(s) written to ${from ? base : SDK_DIR}`);
for (const note of model.notes) console.error(`sdk: note: ${note}`);
