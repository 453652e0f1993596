import type { Config } from "../../config.ts";
import { dryKyb, providersAreDry } from "../dry-run.ts";
import type { KybProvider } from "./provider.ts";
import { SandboxKybProvider } from "./sandbox.ts";

export type { KybCheckSession, KybProvider, KybVerdict } from "./provider.ts";
export { KybProviderError } from "./provider.ts";

const sandbox = new SandboxKybProvider();

/** The configured business-verification provider; the sandbox is the only one so far. */
export function kybProvider(_config: Config): KybProvider {
  if (providersAreDry()) return dryKyb;
  return sandbox;
}
