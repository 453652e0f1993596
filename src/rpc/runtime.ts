import { randomBytes } from "node:crypto";
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

/** A random prefix per process: ids of two instances (or two runs) do not meet. */
const REQUEST_ID_PREFIX = randomBytes(9).toString("base64url");
let requestCount = 0;

/**
 * Request ids need to be unique, not ordered nor secret (they name log lines): the process's prefix and a counter,
 * with no entropy drawn per request.
 */
export const newRequestId = (): string => `${REQUEST_ID_PREFIX}-${(++requestCount).toString(36)}`;
