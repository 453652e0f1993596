import { randomUUID } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { MethodEntry } from "../../generated/registry.ts";
import type { Config } from "../config.ts";
import type { RpcContext } from "./context.ts";

/** Everything a request needs that lives as long as the process: no per-user state lives here. */
export interface Runtime {
  config: Config;
  orm: MikroORM;
  log: Logger;
  registry: Map<string, MethodEntry<RpcContext>>;
  /** Served OpenRPC documents: "all" and one per domain. */
  openrpc: Map<string, unknown>;
}

/** Request ids need to be unique, not ordered: randomUUID draws from a pooled entropy buffer (no syscall each). */
export const newRequestId = (): string => randomUUID();
