import { buildRegistry, type MethodEntry } from "../../generated/registry.ts";
import { crudHandlers } from "../crud/engine.ts";
import type { RpcContext } from "../rpc/context.ts";
import { services } from "../services/index.ts";

export function createRegistry(): Map<string, MethodEntry<RpcContext>> {
  return buildRegistry(services, crudHandlers);
}
