import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { DOMAINS } from "../../generated/policy.ts";
import { buildRegistry, type MethodEntry } from "../../generated/registry.ts";
import type { Config } from "../config.ts";
import { crudHandlers } from "../crud/engine.ts";
import type { RpcContext } from "../rpc/context.ts";
import { services } from "../services/index.ts";

const GENERATED = join(import.meta.dirname, "..", "..", "generated");

/** Everything a request needs that lives as long as the process: no per-user state lives here. */
export interface Runtime {
  config: Config;
  orm: MikroORM;
  log: Logger;
  registry: Map<string, MethodEntry<RpcContext>>;
  /** Served OpenRPC documents: "all" and one per domain. */
  openrpc: Map<string, unknown>;
}

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
