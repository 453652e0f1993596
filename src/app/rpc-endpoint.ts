import type { Logger } from "pino";
import { type CallerOutcome, type Credentials, resolveCaller, resolveCallerNow } from "../http/credentials.ts";
import { openrpcText } from "../http/documents.ts";
import { accessLog, callerFields, roundMs } from "../http/request-log.ts";
import { isAgentKey, runAgentCall } from "../mcp/agent-calls.ts";
import { metricsOf } from "../metrics/metrics.ts";
import type { CallStats } from "../metrics/metrics-calls.ts";
import type { RequestInfo } from "../rpc/context.ts";
import { dispatchCall } from "../rpc/dispatcher.ts";
import { logCause, RpcError } from "../rpc/errors.ts";
import { idempotencyRefusal } from "../rpc/idempotency.ts";
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
import { andThen, isPromiseLike, type MaybePromise } from "../rpc/maybe-async.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { createContext } from "../rpc/runtime-context.ts";
import { declaredFault, faultDetail } from "../rpc/unexpected-error.ts";

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

/** A body this short cannot nest past MAX_DEPTH (each level takes an opening and a closing bracket). */
const SHALLOW_BODY = 2 * (MAX_DEPTH + 1);

/** One JSON-RPC endpoint: `scope` is "all" (`/rpc`) or a domain (`/{context}/{domain}/rpc`). */
export class RpcEndpoint {
  private readonly log: Logger;
  /** Where calls are counted (GET /metrics); null for a runtime without metrics. */
  private readonly calls: CallStats | null;

  constructor(
    private readonly runtime: Runtime,
    private readonly scope: string,
  ) {
    this.log = accessLog(runtime.log);
    this.calls = metricsOf(runtime)?.calls ?? null;
  }

  /**
   * Answers one HTTP request's body (`request.rawBody`), handing the answer to `reply` and returning what it returns.
   * The result is a promise only when some call waited for something (the caller's credentials, a database, an
   * asynchronous handler); `reply` runs once, in the same turn as the last call's outcome.
   */
  handle<T>(request: RequestInfo, credentials: Credentials, reply: (answer: HttpAnswer) => T): MaybePromise<T> {
    const body = request.rawBody;
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return this.refuse(RpcError.parseError(), reply);
    }
    if (body.length >= SHALLOW_BODY && nestingDepth(body) > MAX_DEPTH)
      return this.refuse(RpcError.invalidRequest(`JSON nesting over ${MAX_DEPTH} levels`), reply);
    const key = request.idempotencyKey;
    const keyRefusal = key == null ? null : idempotencyRefusal(key, Array.isArray(message));
    if (keyRefusal) return this.refuse(keyRefusal, reply);
    const caller = new CallerCache(this.runtime, credentials);
    if (Array.isArray(message)) {
      if (message.length === 0) return this.refuse(RpcError.invalidRequest("empty batch"), reply);
      if (message.length > MAX_BATCH_CALLS)
        return this.refuse(RpcError.invalidRequest(`batch over ${MAX_BATCH_CALLS} calls`), reply);
      return andThen(new BatchRun(this, message, caller, request).run(), reply);
    }
    return this.call(message, caller, request, true, ({ response }) =>
      reply(response ? { status: 200, body: this.serialize(response) } : { status: 204, body: null }),
    );
  }

  /** A whole request refused before any call was read (counted under the `(invalid)` method). */
  private refuse<T>(error: RpcError, reply: (answer: HttpAnswer) => T): T {
    this.calls?.invalidRequest(error);
    return reply(json(200, errorResponse(null, error)));
  }

  /** A response as JSON text; the OpenRPC document is serialized once (per base URL) and spliced in. */
  serialize(response: JsonRpcResponse): string {
    const doc = this.runtime.openrpc.get(this.scope);
    if (typeof doc !== "object" || doc === null || response.result !== doc) return JSON.stringify(response);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${openrpcText(doc)}}`;
  }

  get maxBatchAnswerBytes(): number {
    return this.runtime.config.maxBatchAnswerBytes;
  }

  /** The request's one line (src/app/request-log.ts): every request, succeeded or not. */
  logLine(fields: Record<string, unknown>, caller: CallerCache, ok: boolean): void {
    this.log.info({ ...fields, ...caller.fields(), outcome: ok ? "ok" : "error" }, "rpc");
  }

  /** One call; its outcome goes to `next`, and the result is a promise only when the call waited for something. */
  call<T>(
    message: unknown,
    caller: CallerCache,
    request: RequestInfo,
    logCall: boolean,
    next: (outcome: CallOutcome) => T,
  ): MaybePromise<T> {
    const checked = validateEnvelope(message);
    if ("error" in checked) {
      this.calls?.invalidRequest(checked.error);
      const response = isNotificationMessage(message) ? null : errorResponse(checked.id, checked.error);
      return next({ response, error: checked.error });
    }
    const req = checked.request;
    const started = performance.now();
    let value: unknown;
    try {
      value = this.run(req, caller, request);
    } catch (err) {
      return next(this.failed(req, request, started, err, logCall ? caller : null));
    }
    const logAs = logCall ? caller : null;
    if (!isPromiseLike(value)) return next(this.succeeded(req, request, started, value, logAs));
    return value.then(
      (result) => next(this.succeeded(req, request, started, result, logAs)),
      (err: unknown) => next(this.failed(req, request, started, err, logAs)),
    );
  }

  private succeeded(
    req: JsonRpcRequest,
    request: RequestInfo,
    started: number,
    result: unknown,
    logAs: CallerCache | null,
  ): CallOutcome {
    const ms = performance.now() - started;
    this.calls?.ok(req.method, ms);
    if (logAs) this.logLine({ requestId: request.requestId, method: req.method, ms: roundMs(ms) }, logAs, true);
    return { response: isNotification(req) ? null : { jsonrpc: "2.0", id: req.id ?? null, result }, error: null };
  }

  private failed(req: JsonRpcRequest, request: RequestInfo, started: number, err: unknown, logAs: CallerCache | null) {
    const error = this.toRpcError(err, req.method, request.requestId);
    const ms = performance.now() - started;
    this.calls?.failed(req.method, error, ms);
    if (logAs) {
      const fields = { requestId: request.requestId, method: req.method, ms: roundMs(ms) };
      this.logLine({ ...fields, code: error.code, variant: error.data?.variant }, logAs, false);
    }
    return { response: isNotification(req) ? null : errorResponse(req.id ?? null, error), error };
  }

  /** The call's result: a value, or a promise when the caller's credentials or the call itself must be waited for. */
  private run(req: JsonRpcRequest, caller: CallerCache, request: RequestInfo): unknown {
    if (req.method === "rpc.discover") return this.runtime.openrpc.get(this.scope);
    const entry = this.runtime.registry.get(req.method);
    if (!entry || (this.scope !== "all" && entry.domain !== this.scope)) throw RpcError.methodNotFound(req.method);
    return andThen(caller.get(), (outcome) => {
      if ("error" in outcome && entry.auth !== "anonymous" && entry.auth !== "webhook") throw outcome.error;
      const known = "caller" in outcome ? outcome.caller : null;
      if (isAgentKey(known)) {
        return runAgentCall(this.runtime.config, { entry, caller: known, request, params: req.params });
      }
      return dispatchCall(entry, createContext(this.runtime, known, request, entry), req.params);
    });
  }

  private toRpcError(err: unknown, method: string, requestId: string): RpcError {
    if (err instanceof RpcError) {
      logCause(this.runtime.log, err, { requestId, method }); // the answer is err.toJSON(): never the cause
      return err;
    }
    const declared = declaredFault(err);
    if (declared) {
      logCause(this.runtime.log, declared, { requestId, method });
      return declared;
    }
    this.runtime.log.error({ requestId, method, err, ...faultDetail(err) }, "internal error");
    return RpcError.internal();
  }
}

const sameOutcome = (outcome: CallOutcome): CallOutcome => outcome;

/**
 * A batch, run in order. Its answer is bounded: `rpc.discover` is answered once (a copy is refused, not run), and
 * once the answers reach `config.maxBatchAnswerBytes` (4 MiB; the whole OpenRPC document is about 1 MiB) the
 * remaining calls are refused without running. A batch logs one line for the whole request: a line per call would
 * cost more than most calls. Calls that answer at once run in a plain loop; the run waits only for a call that
 * returned a promise.
 */
class BatchRun {
  private readonly started = performance.now();
  private readonly parts: string[] = [];
  private bytes = 0;
  private failed = 0;
  private discovered = false;

  constructor(
    private readonly endpoint: RpcEndpoint,
    private readonly items: unknown[],
    private readonly caller: CallerCache,
    private readonly request: RequestInfo,
  ) {}

  /** A promise for the whole batch (one per request); a call's own outcome is awaited only when it is a promise. */
  async run(): Promise<HttpAnswer> {
    const cap = this.endpoint.maxBatchAnswerBytes;
    for (const item of this.items) {
      const full = this.bytes >= cap;
      const refusal =
        full || this.discovered ? batchRefusal(item, { discovered: this.discovered, full: full ? cap : null }) : null;
      if (refusal) {
        this.record(item, refusal, true);
        continue;
      }
      const outcome = this.endpoint.call(item, this.caller, this.request, false, sameOutcome);
      this.record(item, isPromiseLike(outcome) ? await outcome : outcome, false);
    }
    return this.answer();
  }

  private record(item: unknown, outcome: CallOutcome, refused: boolean): void {
    if (outcome.error) this.failed += 1;
    if (!outcome.response) return;
    if (!refused && isDiscover(item)) this.discovered = true;
    const text = this.endpoint.serialize(outcome.response);
    this.bytes += text.length;
    this.parts.push(text);
  }

  private answer(): HttpAnswer {
    const fields = {
      requestId: this.request.requestId,
      method: "batch",
      calls: this.items.length,
      failed: this.failed,
      ms: elapsed(this.started),
    };
    this.endpoint.logLine(fields, this.caller, this.failed === 0);
    const { parts } = this;
    return parts.length > 0 ? { status: 200, body: `[${parts.join(",")}]` } : { status: 204, body: null };
  }
}

/** No credential sent: `resolveCaller` answers null without waiting for anything. */
const NO_CALLER: CallerOutcome = { caller: null };

/** Credentials are checked once per HTTP request, and only when some call needs them. */
class CallerCache {
  private outcome: CallerOutcome | null;
  private pending: Promise<CallerOutcome> | null = null;

  constructor(
    private readonly runtime: Runtime,
    private readonly credentials: Credentials,
  ) {
    const sent = credentials.both || credentials.apiKey !== null || credentials.bearer !== null;
    this.outcome = sent ? null : NO_CALLER;
  }

  /** The outcome, at once when it is known (no credential sent, or already checked). */
  get(): CallerOutcome | Promise<CallerOutcome> {
    if (this.outcome) return this.outcome;
    if (!this.pending) {
      const known = this.knownNow();
      if (known) return known;
    }
    // Only raw SQL runs here, on the shared connection pool: no unit of work to fork.
    this.pending ??= resolveCaller(this.runtime.orm.em, this.credentials, this.runtime.config.clock()).then(
      (caller) => {
        this.outcome = { caller };
        return this.outcome;
      },
      (error: unknown) => {
        if (error instanceof RpcError) {
          this.outcome = { error };
          return this.outcome;
        }
        throw error;
      },
    );
    return this.pending;
  }

  /** The caller's fields of the request's log line (anonymous until credentials were checked). */
  fields(): ReturnType<typeof callerFields> {
    const outcome = this.outcome;
    if (!outcome) return callerFields(null);
    return "caller" in outcome ? callerFields(outcome.caller) : callerFields(null, true);
  }

  /** The outcome without waiting when nothing has to be read (an API key this instance has cached). */
  private knownNow(): CallerOutcome | null {
    try {
      const caller = resolveCallerNow(this.runtime.orm.em, this.credentials, this.runtime.config.clock());
      if (caller === undefined) return null;
      this.outcome = { caller };
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      this.outcome = { error };
    }
    return this.outcome;
  }
}

function elapsed(started: number): number {
  return roundMs(performance.now() - started);
}
