import { DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { MethodPolicy } from "../../generated/policy.ts";
import { ownConnection, writeSlots } from "../db/orm.ts";
import { createCallContext } from "../rpc/call-context.ts";
import type { Caller, RequestInfo, RpcContext } from "../rpc/context.ts";
import { dispatch } from "../rpc/dispatcher.ts";
import { logCause, RpcError } from "../rpc/errors.ts";
import {
  errorResponse,
  isNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  MAX_DEPTH,
  nestingDepth,
  validateEnvelope,
} from "../rpc/jsonrpc.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { type CallerOutcome, type Credentials, resolveCaller } from "./credentials.ts";

export interface HttpAnswer {
  status: number;
  body: string | null;
}

const json = (status: number, value: unknown): HttpAnswer => ({ status, body: JSON.stringify(value) });

/** One JSON-RPC endpoint: `scope` is "all" (`/rpc`) or a domain (`/{context}/{domain}/rpc`). */
export class RpcEndpoint {
  constructor(
    private readonly runtime: Runtime,
    private readonly scope: string,
  ) {}

  async handle(body: string, credentials: Credentials, info: Omit<RequestInfo, "rawBody">): Promise<HttpAnswer> {
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return json(200, errorResponse(null, RpcError.parseError()));
    }
    if (nestingDepth(body) > MAX_DEPTH)
      return json(200, errorResponse(null, RpcError.invalidRequest(`JSON nesting over ${MAX_DEPTH} levels`)));
    const request: RequestInfo = { ...info, rawBody: body };
    const caller = new CallerCache(this.runtime, credentials);
    if (Array.isArray(message)) {
      if (message.length === 0) return json(200, errorResponse(null, RpcError.invalidRequest("empty batch")));
      if (message.length > 1000)
        return json(200, errorResponse(null, RpcError.invalidRequest("batch over 1000 calls")));
      // A batch logs one line for the whole request: a line per call would cost more than most calls.
      const started = performance.now();
      const responses: JsonRpcResponse[] = [];
      let failed = 0;
      for (const item of message) {
        const outcome = await this.call(item, caller, request, false);
        if (outcome.error) failed += 1;
        if (outcome.response) responses.push(outcome.response);
      }
      const summary = {
        requestId: request.requestId,
        method: "batch",
        calls: message.length,
        failed,
        ms: elapsed(started),
      };
      this.runtime.log.info({ ...summary, outcome: failed === 0 ? "ok" : "error" }, "rpc");
      return responses.length > 0 ? json(200, responses) : { status: 204, body: null };
    }
    const { response } = await this.call(message, caller, request, true);
    return response ? json(200, response) : { status: 204, body: null };
  }

  private async call(
    message: unknown,
    caller: CallerCache,
    request: RequestInfo,
    logCall: boolean,
  ): Promise<{ response: JsonRpcResponse | null; error: RpcError | null }> {
    const checked = validateEnvelope(message);
    if ("error" in checked) return { response: errorResponse(checked.id, checked.error), error: checked.error };
    const req = checked.request;
    const notification = isNotification(req);
    const id = req.id ?? null;
    const started = performance.now();
    try {
      const result = await this.run(req, caller, request);
      if (logCall)
        this.runtime.log.info(
          { requestId: request.requestId, method: req.method, ms: elapsed(started), outcome: "ok" },
          "rpc",
        );
      return { response: notification ? null : { jsonrpc: "2.0", id, result }, error: null };
    } catch (err) {
      const error = this.toRpcError(err, req.method, request.requestId);
      const fields = { requestId: request.requestId, method: req.method, ms: elapsed(started), outcome: "error" };
      if (logCall) this.runtime.log.info({ ...fields, code: error.code, variant: error.data?.variant }, "rpc");
      return { response: notification ? null : errorResponse(id, error), error };
    }
  }

  private async run(req: JsonRpcRequest, caller: CallerCache, request: RequestInfo): Promise<unknown> {
    if (req.method === "rpc.discover") return this.runtime.openrpc.get(this.scope);
    const entry = this.runtime.registry.get(req.method);
    if (!entry || (this.scope !== "all" && entry.domain !== this.scope)) throw RpcError.methodNotFound(req.method);
    const outcome = await caller.get();
    if ("error" in outcome && entry.auth !== "anonymous" && entry.auth !== "webhook") throw outcome.error;
    const ctx = createContext(this.runtime, "caller" in outcome ? outcome.caller : null, request, entry);
    return dispatch(entry, ctx, req.params);
  }

  private toRpcError(err: unknown, method: string, requestId: string): RpcError {
    if (err instanceof RpcError) {
      logCause(this.runtime.log, err, { requestId, method }); // the answer is err.toJSON(): never the cause
      return err;
    }
    if (err instanceof UniqueConstraintViolationException) {
      return RpcError.app("RpcError", "AlreadyExists", "a record with the same unique value already exists");
    }
    const detail = err instanceof DriverException ? { name: err.name, code: err.code } : {};
    this.runtime.log.error({ requestId, method, err, ...detail }, "internal error");
    return RpcError.internal();
  }
}

/** A call's context; its unit of work is forked on first use, so calls that never touch the database pay nothing. */
export function createContext(
  runtime: Runtime,
  caller: Caller | null,
  request: RequestInfo,
  method: MethodPolicy,
): RpcContext {
  return createCallContext({
    em: () => runtime.orm.em.fork(),
    ownConnection: ownConnection(runtime.orm),
    writeSlots: writeSlots(runtime.orm),
    caller,
    config: runtime.config,
    request,
    method,
    log: runtime.log,
  });
}

/** Credentials are checked once per HTTP request, and only when some call needs them. */
class CallerCache {
  private outcome: Promise<CallerOutcome> | null = null;
  constructor(
    private readonly runtime: Runtime,
    private readonly credentials: Credentials,
  ) {}

  get(): Promise<CallerOutcome> {
    // Only raw SQL runs here, on the shared connection pool: no unit of work to fork.
    this.outcome ??= resolveCaller(this.runtime.orm.em, this.credentials, this.runtime.config.clock()).then(
      (caller) => ({ caller }),
      (error: unknown) => {
        if (error instanceof RpcError) return { error };
        throw error;
      },
    );
    return this.outcome;
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
