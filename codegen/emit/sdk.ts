import type { SpecModel } from "../model.ts";
import type { GeneratedFile } from "../write.ts";
import { servedDocument } from "./openrpc.ts";
import { sdkFiles } from "./sdk-files.ts";
import { type SdkModel, sdkModelFromOpenrpc } from "./sdk-model.ts";

/** Where `npm run codegen` writes the client of this repository's API, and its package name. */
export const SDK_DIR = "clients/ts";
export const SDK_PACKAGE = "@freezone/client";

/** The client model of this repository's API: read from the served `all` document, as a client team would. */
export function sdkModel(model: SpecModel): SdkModel {
  return sdkModelFromOpenrpc(servedDocument(model));
}

/** clients/ts: the typed client package, drift-checked with generated/. */
export function emitSdk(model: SpecModel): Promise<GeneratedFile[]> {
  return sdkFiles(sdkModel(model), { dir: SDK_DIR, name: SDK_PACKAGE, source: "spec/" });
}
