/**
 * The client's runtime: JSON-RPC 2.0 over HTTP with the platform's credentials, typed errors, token refresh,
 * retries for reads, read-only batches and writes (each write carries an `Idempotency-Key`, so a retry runs once). No dependencies: it needs only `fetch` (injectable) and `AbortSignal`.
 * Copied verbatim into every generated client from tools/sdk/template/runtime.ts.
 */

/** The variants any call may meet whatever its method declares: protocol, transport, credentials and limits. */
export type CommonVariant =
  | "ParseError"
  | "InvalidRequest"
  | "MethodNotFound"
  | "InvalidParams"
  | "InternalError"
  | "NetworkError"
  | "HttpError"
  | "InvalidResponse"
  | "MissingCredentials"
  | "InvalidCredentials"
  | "TokenExpired"
  | "KeyRevoked"
  | "KeyExpired"
  | "SessionRequired"
  | "AdminOnly"
  | "NotOwner"
  | "PasswordRequired"
  | "WrongPassword"
  | "ScopeDenied"
  | "NotImplemented"
  | "RateLimited"
  | "SpendingLimit"
  | "CallLimit"
  | "QuotaExceeded"
  | "ApprovalRequired"
  | "NoMcpAccess"
  | "Internal"
  | "DatabaseBusy"
  | "DatabaseUnavailable"
  | "ShuttingDown"
  | "IdempotencyKeyReused"
  | "IdempotencyKeyInUse";

/** JSON-RPC's own codes carry no `data.variant`: the client names them. */
const PROTOCOL_VARIANTS: Record<number, string> = {
  [-32700]: "ParseError",
  [-32600]: "InvalidRequest",
  [-32601]: "MethodNotFound",
  [-32602]: "InvalidParams",
  [-32603]: "InternalError",
};

/** Code of the errors the client makes itself (no JSON-RPC answer to read). */
export const TRANSPORT_ERROR_CODE = -32099;

/**
 * Every failure of a call: a JSON-RPC error the server answered (`code`, `message`, `data.type`, `data.variant`
 * and details) or one the client met on the way (`type: "TransportError"`: `NetworkError`, `HttpError`,
 * `InvalidResponse`). `V` is the union of variants the method may answer.
 */
export class FreezoneRpcError<V extends string = string> extends Error {
  override readonly name = "FreezoneRpcError";
  readonly code: number;
  readonly type: string;
  readonly variant: V;
  readonly data: Record<string, unknown>;
  /** The wire name of the method that failed. */
  readonly method: string;
  /** The HTTP status, when the failure came with one. */
  readonly status: number | undefined;

  constructor(
    method: string,
    error: { code: number; message: string; data?: unknown },
    status?: number,
    options?: { cause?: unknown },
  ) {
    super(error.message, options);
    const data =
      error.data !== null && typeof error.data === "object" && !Array.isArray(error.data)
        ? (error.data as Record<string, unknown>)
        : {};
    this.code = error.code;
    this.method = method;
    this.status = status;
    this.data = data;
    this.type = typeof data["type"] === "string" ? data["type"] : "RpcError";
    this.variant = (
      typeof data["variant"] === "string" ? data["variant"] : (PROTOCOL_VARIANTS[error.code] ?? "Unknown")
    ) as V;
  }
}

/** True when `err` is a FreezoneRpcError (of `method`, when given). */
export function isFreezoneRpcError(err: unknown, method?: string): err is FreezoneRpcError {
  return err instanceof FreezoneRpcError && (method === undefined || err.method === method);
}

function transportError(method: string, variant: string, message: string, status?: number, cause?: unknown) {
  const error = { code: TRANSPORT_ERROR_CODE, message, data: { type: "TransportError", variant } };
  return new FreezoneRpcError(method, error, status, cause === undefined ? undefined : { cause });
}

/** The subset of `fetch` the client uses; the global one by default. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface SessionTokens {
  accessToken: string;
  /** Without it, an expired access token cannot be refreshed. */
  refreshToken?: string;
}

export type Credentials = { apiKey: string } | SessionTokens;

export interface RetryOptions {
  /** Attempts in all for a call (first one included); 1 turns retries off. Default 3. */
  attempts?: number;
  /** First backoff delay; doubled each attempt, with jitter. Default 200 ms. */
  baseDelayMs?: number;
  /** Longest delay between attempts (and longest `retry_after_s` honoured). Default 5,000 ms. */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The JSON-RPC endpoint, e.g. `https://registry.example/rpc` (or a domain endpoint). */
  url: string;
  credentials?: Credentials;
  fetch?: FetchLike;
  retry?: RetryOptions;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Called with the new tokens after the client refreshed an expired session, so the app can keep them. */
  onSessionRefreshed?: (tokens: SessionTokens) => void;
  /** Waits between retries (tests inject one that does not wait). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of a write (a new random UUID by default). Pass your own, kept with the work it stands
   * for, to retry the same write safely after a restart of your process: the server runs it once per key for 24 h.
   */
  idempotencyKey?: string;
}

/** How a list pages (see `Transport.pages`), and the array of its result it pages over. */
export interface PageStyle {
  style: "cursor" | "page" | "offset";
  items: string;
}

/** What the generated code tells the runtime about the API. */
export interface ApiInfo {
  /** Methods that only read (retried on transient failures). */
  readOnly: ReadonlySet<string>;
  /** The lists, by wire name: how each pages. */
  pages: Readonly<Record<string, PageStyle>>;
  /** The method that trades a refresh token for a new session, and its token param; null when the API has none. */
  refresh: { method: string; param: string } | null;
}

/** One entry of a batch, as the batch builder returns it. */
export interface BatchCall<R = unknown, V extends string = string> {
  readonly method: string;
  readonly params: unknown;
  /** Type-level only: the result and error variants of this entry. */
  readonly __types?: { result: R; variant: V };
}

/** A batch entry's outcome. */
export type Settled<R, V extends string = string> =
  | { ok: true; result: R }
  | { ok: false; error: FreezoneRpcError<V | CommonVariant> };

export type SettledAll<T extends readonly BatchCall<unknown, string>[]> = {
  -readonly [K in keyof T]: T[K] extends BatchCall<infer R, infer V> ? Settled<R, V> : never;
};

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

type Reply = { id: number | null; result?: unknown; error?: JsonRpcError };

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A JSON-RPC answer, or null; an error to a request the server could not read has a null id. */
function asReply(value: unknown): Reply | null {
  if (!isObject(value)) return null;
  const raw = value["id"];
  const id = typeof raw === "number" ? raw : raw === null ? null : undefined;
  const error = value["error"];
  if (id === undefined) return null;
  if (error !== undefined) {
    if (!isObject(error) || typeof error["code"] !== "number") return null;
    const message = typeof error["message"] === "string" ? error["message"] : "";
    return { id, error: { code: error["code"], message, data: error["data"] } };
  }
  if (id === null || !("result" in value)) return null;
  return { id, result: value["result"] };
}

/** Failures the server asks to retry after `data.retry_after_s`: limits, a busy database, a key still running. */
const RETRY_AFTER_VARIANTS = new Set([
  "RateLimited",
  "DatabaseBusy",
  "DatabaseUnavailable",
  "ShuttingDown",
  "IdempotencyKeyInUse",
]);

/**
 * A failure worth another attempt: the network, a gateway, or a refusal that says when to retry. Only reads and
 * writes sent with an Idempotency-Key are retried (a write that may have run is never sent again without one).
 */
function retryDelay(err: FreezoneRpcError, attempt: number, retry: Required<RetryOptions>): number | null {
  if (attempt >= retry.attempts) return null;
  const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  const jittered = backoff / 2 + Math.random() * (backoff / 2);
  if (err.variant === "NetworkError") return jittered;
  if (err.variant === "HttpError" && (err.status === 502 || err.status === 503 || err.status === 504)) return jittered;
  if (RETRY_AFTER_VARIANTS.has(err.variant)) {
    const after = typeof err.data["retry_after_s"] === "number" ? err.data["retry_after_s"] * 1000 : backoff;
    return after <= retry.maxDelayMs ? after : null;
  }
  return null;
}

/** A fresh Idempotency-Key: a random UUID (Web Crypto, in browsers and Node 19+). */
function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  throw new Error("no crypto.randomUUID available: pass options.idempotencyKey");
}

/** Sends calls with the client's credentials; refreshes an expired session once; retries reads. */
export class Transport {
  private credentials: Credentials | null;
  private refreshing: Promise<void> | null = null;
  private nextId = 1;
  private readonly fetch: FetchLike;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly retry: Required<RetryOptions>;

  constructor(
    private readonly options: ClientOptions,
    private readonly api: ApiInfo,
  ) {
    this.credentials = options.credentials ?? null;
    const fetchImpl = options.fetch ?? (globalThis.fetch as unknown as FetchLike | undefined);
    if (!fetchImpl) throw new Error("no fetch available: pass options.fetch");
    this.fetch = fetchImpl;
    this.sleep = options.sleep ?? defaultSleep;
    this.retry = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5000, ...options.retry };
  }

  setCredentials(credentials: Credentials | null): void {
    this.credentials = credentials;
    this.refreshing = null;
  }

  getCredentials(): Credentials | null {
    return this.credentials;
  }

  /**
   * One call: its result, or a FreezoneRpcError. A write is sent with an Idempotency-Key (the same one on every
   * attempt), so it is retried like a read: the server runs it once and answers a retry with the first answer.
   */
  async call(method: string, params: unknown, options: CallOptions = {}): Promise<unknown> {
    const sent = this.api.readOnly.has(method) ? options : withIdempotencyKey(options);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.callRefreshing(method, params, sent);
      } catch (err) {
        const delay = err instanceof FreezoneRpcError ? retryDelay(err, attempt, this.retry) : null;
        if (delay === null) throw err;
        await this.sleep(delay, options.signal);
      }
    }
  }

  /**
   * Every item of a list, one call per page (each retried as `call` retries it), in the style the method pages:
   * `cursor` sends the previous page's `next_cursor` until it is null; `page` counts `page` up from the given one
   * (default 1) until `total` items were seen or a page comes back short or empty; `offset` advances `offset` by
   * each page's length until a page comes back short or empty. Stops early when the loop breaks.
   */
  async *pages(method: string, params: unknown, options: CallOptions = {}): AsyncGenerator<unknown, void, undefined> {
    const paging = this.api.pages[method];
    if (!paging) throw new Error(`${method} is not a list this client knows how to page`);
    const base: Record<string, unknown> = isObject(params) ? { ...params } : {};
    let cursor: unknown = null;
    let page = typeof base["page"] === "number" ? base["page"] : 1;
    let offset = typeof base["offset"] === "number" ? base["offset"] : 0;
    let seen = 0;
    for (;;) {
      const sent =
        paging.style === "cursor"
          ? { ...base, ...(cursor === null ? {} : { cursor }) }
          : paging.style === "page"
            ? { ...base, page }
            : { ...base, offset };
      const result = await this.call(method, sent, options);
      const items = isObject(result) && Array.isArray(result[paging.items]) ? (result[paging.items] as unknown[]) : [];
      yield* items;
      seen += items.length;
      const answer = isObject(result) ? result : {};
      if (paging.style === "cursor") {
        cursor = answer["next_cursor"] ?? null;
        if (cursor === null || items.length === 0) return;
        continue;
      }
      const size = typeof answer["page_size"] === "number" ? answer["page_size"] : (base["page_size"] ?? base["limit"]);
      const total = typeof answer["total"] === "number" ? answer["total"] : null;
      if (items.length === 0 || (total !== null && seen >= total)) return;
      if (typeof size === "number" && size > 0 && items.length < size) return;
      if (paging.style === "page") page += 1;
      else offset += items.length;
    }
  }

  /** Several calls in one request, answered in order, each settled on its own. */
  async batch(calls: readonly BatchCall[], options: CallOptions = {}): Promise<Settled<unknown>[]> {
    if (calls.length === 0) return [];
    const readOnly = calls.every((c) => this.api.readOnly.has(c.method));
    let settled: Settled<unknown>[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        settled = await this.send(calls, this.authHeaders(), options);
        break;
      } catch (err) {
        const delay = readOnly && err instanceof FreezoneRpcError ? retryDelay(err, attempt, this.retry) : null;
        if (delay === null) throw err;
        await this.sleep(delay, options.signal);
      }
    }
    // Entries refused for an expired session did not run: refresh once and send those again.
    const expired = settled.flatMap((s, i) => (!s.ok && s.error.variant === "TokenExpired" ? [i] : []));
    if (expired.length === 0 || !(await this.refreshAfterExpiry(options))) return settled;
    const again = await this.send(
      expired.map((i) => calls[i]!),
      this.authHeaders(),
      options,
    );
    expired.forEach((index, j) => {
      settled[index] = again[j]!;
    });
    return settled;
  }

  private async callRefreshing(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    const first = await this.sendOne(method, params, this.authHeaders(), options);
    if (first.ok) return first.result;
    if (first.error.variant !== "TokenExpired" || !(await this.refreshAfterExpiry(options))) throw first.error;
    const second = await this.sendOne(method, params, this.authHeaders(), options);
    if (second.ok) return second.result;
    throw second.error;
  }

  /** Trades the refresh token for a new session, once for all the calls that met the expiry together. */
  private async refreshAfterExpiry(options: CallOptions): Promise<boolean> {
    const credentials = this.credentials;
    const refresh = this.api.refresh;
    if (!refresh || !credentials || !("accessToken" in credentials) || !credentials.refreshToken) return false;
    this.refreshing ??= this.refreshSession(refresh, credentials.refreshToken, options).finally(() => {
      this.refreshing = null;
    });
    await this.refreshing;
    return true;
  }

  private async refreshSession(
    refresh: { method: string; param: string },
    refreshToken: string,
    options: CallOptions,
  ): Promise<void> {
    // Anonymous: the expired access token would be refused before the refresh ran.
    const reply = await this.sendOne(refresh.method, { [refresh.param]: refreshToken }, {}, options);
    if (!reply.ok) throw reply.error;
    const result = reply.result;
    if (!isObject(result) || typeof result["access_token"] !== "string") {
      throw transportError(refresh.method, "InvalidResponse", "the refresh answered no access token");
    }
    const tokens: SessionTokens = { accessToken: result["access_token"] };
    const next = typeof result["refresh_token"] === "string" ? result["refresh_token"] : refreshToken;
    tokens.refreshToken = next;
    this.credentials = tokens;
    this.options.onSessionRefreshed?.(tokens);
  }

  private authHeaders(): Record<string, string> {
    const c = this.credentials;
    if (!c) return {};
    return "apiKey" in c ? { "x-api-key": c.apiKey } : { authorization: `Bearer ${c.accessToken}` };
  }

  private async sendOne(
    method: string,
    params: unknown,
    auth: Record<string, string>,
    options: CallOptions,
  ): Promise<Settled<unknown>> {
    const [settled] = await this.send([{ method, params }], auth, options, false);
    return settled!;
  }

  /** Posts the calls (an array when `asBatch`) and settles each answer by id. */
  private async send(
    calls: readonly BatchCall[],
    auth: Record<string, string>,
    options: CallOptions,
    asBatch = true,
  ): Promise<Settled<unknown>[]> {
    const requests = calls.map((c) => ({
      jsonrpc: "2.0",
      id: this.nextId++,
      method: c.method,
      params: c.params ?? {},
    }));
    const label = asBatch ? "batch" : calls[0]!.method;
    const headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...this.options.headers,
      ...options.headers,
      ...auth,
    };
    const init = { method: "POST", headers, body: JSON.stringify(asBatch ? requests : requests[0]) };
    let status: number;
    let text: string;
    try {
      const res = await this.fetch(this.options.url, options.signal ? { ...init, signal: options.signal } : init);
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw transportError(label, "NetworkError", `request failed: ${(err as Error)?.message ?? err}`, undefined, err);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = undefined;
    }
    const replies = (Array.isArray(body) ? body : [body]).map(asReply);
    if (replies.some((r) => r === null) || body === undefined || body === null) {
      const variant = status === 200 ? "InvalidResponse" : "HttpError";
      throw transportError(label, variant, `HTTP ${status}: not a JSON-RPC answer`, status);
    }
    const byId = new Map((replies as Reply[]).map((r) => [r.id, r]));
    // One error with a null id for the whole request (unreadable body, invalid request): every call failed with it.
    const whole = replies.length === 1 && replies[0]?.id === null ? replies[0] : undefined;
    return requests.map((req, i): Settled<unknown> => {
      const reply = byId.get(req.id) ?? whole;
      const method = calls[i]!.method;
      if (!reply) return { ok: false, error: transportError(method, "InvalidResponse", "no answer for this call") };
      if (reply.error) return { ok: false, error: new FreezoneRpcError(method, reply.error, status) };
      return { ok: true, result: reply.result };
    });
  }
}

/** The call's options with its Idempotency-Key header (the caller's key, or a new one for all its attempts). */
function withIdempotencyKey(options: CallOptions): CallOptions {
  const key = options.idempotencyKey ?? newIdempotencyKey();
  return { ...options, headers: { ...options.headers, "idempotency-key": key } };
}

/** Two sets of namespace objects as one: a namespace in both gets the members of both. */
export function mergeNamespaces<A extends object, B extends object>(a: A, b: B): A & B {
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [name, ns] of Object.entries(b as Record<string, object>)) {
    out[name] = Object.freeze({ ...((out[name] as object | undefined) ?? {}), ...ns });
  }
  return out as A & B;
}

/**
 * The namespace objects of a client: `services` maps each namespace to its operations' wire names, `make` turns a
 * wire name into the function the namespace offers for it.
 */
export function namespaces<T>(
  services: Record<string, Record<string, string>>,
  make: (method: string) => (...args: never[]) => unknown,
): T {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, ops] of Object.entries(services)) {
    const ns: Record<string, unknown> = {};
    for (const [op, method] of Object.entries(ops)) ns[op] = make(method);
    out[name] = Object.freeze(ns);
  }
  return out as T;
}
