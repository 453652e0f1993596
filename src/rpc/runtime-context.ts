import type { MethodPolicy } from "../../generated/policy.ts";
import { ownConnection, writeSlots } from "../db/orm.ts";
import { type CallContextInput, createCallContext } from "./call-context.ts";
import type { Caller, RequestInfo, RpcContext } from "./context.ts";
import type { Runtime } from "./runtime.ts";

/** A call's context; its unit of work is forked on first use, so calls that never touch the database pay nothing. */
export function createContext(
  runtime: Runtime,
  caller: Caller | null,
  request: RequestInfo,
  method: MethodPolicy,
): RpcContext {
  const shared = sharedOf(runtime);
  return createCallContext({
    em: shared.em,
    ownConnection: shared.ownConnection,
    writeSlots: shared.writeSlots,
    caller,
    config: runtime.config,
    request,
    method,
    log: runtime.log,
  });
}

type SharedParts = Pick<CallContextInput, "em" | "ownConnection" | "writeSlots">;
const sharedParts = new WeakMap<Runtime, SharedParts>();

/** What every context of a runtime shares, looked up once: a context is made per call, batches make thousands. */
function sharedOf(runtime: Runtime): SharedParts {
  let shared = sharedParts.get(runtime);
  if (!shared) {
    shared = {
      em: () => runtime.orm.em.fork(),
      ownConnection: ownConnection(runtime.orm),
      writeSlots: writeSlots(runtime.orm),
    };
    sharedParts.set(runtime, shared);
  }
  return shared;
}
