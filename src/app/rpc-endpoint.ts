import { DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { MethodPolicy } from "../../generated/policy.ts";
import { ownConnection, writeSlots } from "../db/orm.ts";
import { isAgentKey, runAgentCall } from "../mcp/agent-calls.ts";
import { createCallContext } from "../rpc/call-context.ts";
import type { Caller, RequestInfo, RpcContext } from "../rpc/context.ts";
import { dispatch } from "../rpc/dispatcher.ts";
import { logCause, RpcError } from "../rpc/errors.ts";
import {
  errorResponse,
  isNotification,
  isNotificationMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  MAX_DEPTH,
  nestingDepth,
  validateEnvelope,
} from "../rpc/jsonrpc.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { type CallerOutcome, type Credentials, resolveCaller } from "./credentials.ts";
import { openrpcText } from "./openrpc.ts";

export interface HttpAnswer {
  status: number;
  body: string | null;
}

const json = (status: number, value: unknown): HttpAnswer => ({ status, body: JSON.stringify(value) });

export const MAX_BATCH_CALLS = 1000;

type CallOutcome = { response: JsonRpcResponse | null; error: RpcError | null };

const isDiscover = (item: unknown): boolean =>
  item !== null && typeof item === "object" && (item as { method?: unknown }).method === "rpc.discover";

/** A batch entry refused without running: a second rpc.discover, or any call once the answer is full. */
function batchRefusal(item: unknown, state: { discovered: boolean; full: number | null }): CallOutcome | null {
  let error: RpcError | null = null;
  if (state.full !== null) {
    const message = "the batch answer reached its size limit; this call did not run";
    error = RpcError.app("RpcError", "QuotaExceeded", message, { limit: state.full, window: "request" });
  } else if (state.discovered && isDiscover(item)) {
    error = RpcError.invalidRequest("rpc.discover is answered once per batch");
  }
  if (!error) return null;
  if (isNotificationMessage(item)) return { response: null, error };
  const id = (item as { id?: unknown } | null)?.id;
  const echo = typeof id === "string" || typeof id === "number" ? id : null;
  return { response: errorResponse(echo, error), error };
}

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
      if (message.length > MAX_BATCH_CALLS)
        return json(200, errorResponse(null, RpcError.invalidRequest(`batch over ${MAX_BATCH_CALLS} calls`)));
      return this.batch(message, caller, request);
    }
    const { response } = await this.call(message, caller, request, true);
    return response ? { status: 200, body: this.serialize(response) } : { status: 204, body: null };
  }

  /**
   * Runs a batch in order. Its answer is bounded: `rpc.discover` is answered once (a copy is refused, not run),
   * and once the answers reach `config.maxBatchAnswerBytes` (4 MiB; the whole OpenRPC document is about
   * 1 MiB) the remaining calls are refused without running. A batch logs
   * one line for the whole request: a line per call would cost more than most calls.
   */
  private async batch(messages: unknown[], caller: CallerCache, request: RequestInfo): Promise<HttpAnswer> {
    const started = performance.now();
    const parts: string[] = [];
    let bytes = 0;
    let failed = 0;
    let discovered = false;
    for (const item of messages) {
      const cap = this.runtime.config.maxBatchAnswerBytes;
      const refusal = batchRefusal(item, { discovered, full: bytes >= cap ? cap : null });
      const outcome = refusal ?? (await this.call(item, caller, request, false));
      if (outcome.error) failed += 1;
      if (!outcome.response) continue;
      if (!refusal && isDiscover(item)) discovered = true;
      const text = this.serialize(outcome.response);
      bytes += text.length;
      parts.push(text);
    }
    const summary = {
      requestId: request.requestId,
      method: "batch",
      calls: messages.length,
      failed,
      ms: elapsed(started),
    };
    this.runtime.log.info({ ...summary, outcome: failed === 0 ? "ok" : "error" }, "rpc");
    return parts.length > 0 ? { status: 200, body: `[${parts.join(",")}]` } : { status: 204, body: null };
  }

  /** A response as JSON text; the OpenRPC document is serialized once (per base URL) and spliced in. */
  private serialize(response: JsonRpcResponse): string {
    const doc = this.runtime.openrpc.get(this.scope);
    if (typeof doc !== "object" || doc === null || response.result !== doc) return JSON.stringify(response);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${openrpcText(doc)}}`;
  }

  private async call(
    message: unknown,
    caller: CallerCache,
    request: RequestInfo,
    logCall: boolean,
  ): Promise<CallOutcome> {
    const checked = validateEnvelope(message);
    if ("error" in checked) {
      const response = isNotificationMessage(message) ? null : errorResponse(checked.id, checked.error);
      return { response, error: checked.error };
    }
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
    const known = "caller" in outcome ? outcome.caller : null;
    if (isAgentKey(known)) {
      return runAgentCall(this.runtime.config, { entry, caller: known, request, params: req.params });
    }
    return dispatch(entry, createContext(this.runtime, known, request, entry), req.params);
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
