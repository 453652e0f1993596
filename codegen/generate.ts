import { join } from "node:path";
import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import { type Diagnostic, Diagnostics } from "./diagnostics.ts";
import { emitCodes } from "./emit/codes.ts";
import { emitCrud } from "./emit/crud.ts";
import { emitEntities } from "./emit/entities.ts";
import { emitHandlers } from "./emit/handlers.ts";
import { emitMcp } from "./emit/mcp.ts";
import { emitOpenrpc } from "./emit/openrpc.ts";
import { emitRegistry } from "./emit/registry.ts";
import { emitStubs } from "./emit/stubs.ts";
import { emitTypes } from "./emit/types.ts";
import { emitValidators } from "./emit/validators.ts";
import { loadSpec } from "./load.ts";
import type { SpecModel } from "./model.ts";
import type { GeneratedFile } from "./write.ts";

export interface GenerateResult {
  model: SpecModel | null;
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
}

/** Served documents must pass the OpenRPC meta-schema, like every client's tooling will check. */
function validateOutput(files: GeneratedFile[], diags: Diagnostics): void {
  for (const file of files.filter((f) => f.path.startsWith("generated/openrpc/"))) {
    const result = validateOpenRPCDocument(JSON.parse(file.content));
    if (result !== true) diags.add("invalid-openrpc", file.path, "", result.message);
  }
}

/** spec/ -> model -> every emitter's files. Pure apart from reading spec/ and existing src/services. */
export async function generate(root: string, options: { validateOnly?: boolean } = {}): Promise<GenerateResult> {
  const { model, diags } = loadSpec(join(root, "spec"));
  if (!model || diags.items.length > 0 || options.validateOnly) return { model, files: [], diagnostics: diags.items };
  const files: GeneratedFile[] = [
    ...emitCodes(model),
    ...(await emitTypes(model)),
    ...emitValidators(model),
    ...emitHandlers(model),
    ...emitRegistry(model),
    ...emitCrud(model),
    ...emitEntities(model),
    ...emitMcp(model),
    ...emitOpenrpc(model),
    ...emitStubs(model, root),
  ];
  const out = new Diagnostics();
  validateOutput(files, out);
  return { model, files, diagnostics: out.items };
}
