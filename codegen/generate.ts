import { join } from "node:path";
import type { Diagnostic } from "./diagnostics.ts";
import { emitAuthorization } from "./emit/authorization.ts";
import { emitCodes } from "./emit/codes.ts";
import { emitCrud } from "./emit/crud.ts";
import { emitEntities } from "./emit/entities.ts";
import { emitHandlers } from "./emit/handlers.ts";
import { emitMcp } from "./emit/mcp.ts";
import { emitMethods } from "./emit/methods.ts";
import { emitOpenrpc } from "./emit/openrpc.ts";
import { emitReference } from "./emit/reference.ts";
import { emitRegistry } from "./emit/registry.ts";
import { emitSdk } from "./emit/sdk.ts";
import { emitStubs } from "./emit/stubs.ts";
import { emitTypes } from "./emit/types.ts";
import { emitValidators } from "./emit/validators.ts";
import { formatFiles } from "./format.ts";
import { loadSpec } from "./load.ts";
import type { SpecModel } from "./model.ts";
import { checkOpenrpcDocuments } from "./openrpc-check.ts";
import type { GeneratedFile } from "./write.ts";

export interface GenerateResult {
  model: SpecModel | null;
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
}

export type Emitter = (model: SpecModel, root: string) => GeneratedFile[] | Promise<GeneratedFile[]>;

/**
 * Every emitter by name, in output order. `validators` comes first: it compiles on a worker thread while the
 * others run. `stubs` is the only one that reads existing files (src/services); `authorization` (docs/authorization.md),
 * `reference` (docs/reference/) and `sdk` (clients/ts, formatted on its own) write outside generated/.
 */
export const EMITTERS: Record<string, Emitter> = {
  validators: emitValidators,
  codes: emitCodes,
  types: emitTypes,
  handlers: emitHandlers,
  registry: emitRegistry,
  crud: emitCrud,
  entities: emitEntities,
  mcp: emitMcp,
  methods: emitMethods,
  openrpc: emitOpenrpc,
  stubs: emitStubs,
  authorization: emitAuthorization,
  reference: emitReference,
  sdk: emitSdk,
};

/** Runs one emitter and formats what it wrote, exactly as `generate` would. */
export async function runEmitter(name: string, model: SpecModel, root: string): Promise<GeneratedFile[]> {
  const emitter = EMITTERS[name];
  if (!emitter) throw new Error(`codegen: no emitter named ${name}`);
  return formatFiles(await emitter(model, root));
}

/**
 * spec/ -> model -> every emitter's files. Pure apart from reading spec/ and existing src/services.
 * The spec/services documents as written and the served documents under generated/openrpc/ must both pass the
 * OpenRPC meta-schema, like every client's tooling will check; those checks run on a worker meanwhile.
 */
export async function generate(
  root: string,
  options: { validateOnly?: boolean; onEmitted?: (emitter: string) => void } = {},
): Promise<GenerateResult> {
  const { model, diags, documents } = loadSpec(join(root, "spec"));
  const written = checkOpenrpcDocuments(documents);
  if (!model || diags.items.length > 0 || options.validateOnly) {
    return { model, files: [], diagnostics: [...diags.items, ...(await written)] };
  }
  const emit = async ([name, emitter]: [string, Emitter]) => {
    const out = await emitter(model, root);
    options.onEmitted?.(name);
    return out;
  };
  const emitted = (await Promise.all(Object.entries(EMITTERS).map(emit))).flat();
  const served = checkOpenrpcDocuments(
    emitted
      .filter((f) => f.path.startsWith("generated/openrpc/"))
      .map((f) => ({ file: f.path, doc: JSON.parse(f.content) })),
  );
  const files = await formatFiles(emitted); // the OpenRPC documents are JSON, untouched by formatting
  return { model, files, diagnostics: [...(await written), ...(await served)] };
}
