import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DOMAINS } from "../../generated/policy.ts";
import { buildRegistry, type MethodEntry } from "../../generated/registry.ts";
import { crudHandlers } from "../crud/engine.ts";
import type { RpcContext } from "../rpc/context.ts";
import { services } from "../services/index.ts";

const GENERATED = join(import.meta.dirname, "..", "..", "generated");

export function loadOpenrpcDocuments(): Map<string, unknown> {
  const docs = new Map<string, unknown>();
  for (const name of ["all", ...DOMAINS]) {
    docs.set(name, JSON.parse(readFileSync(join(GENERATED, "openrpc", `${name}.json`), "utf8")));
  }
  return docs;
}

export function createRegistry(): Map<string, MethodEntry<RpcContext>> {
  return buildRegistry(services, crudHandlers);
}
