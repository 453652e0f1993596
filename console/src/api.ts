/**
 * The console's JSON-RPC client: POST /rpc (or a domain endpoint) with the session's Bearer token. The session
 * (access and refresh token) lives in sessionStorage: it survives a reload of the tab, not the closing of it.
 * An expired access token is refreshed once with the refresh token, then the call is sent again.
 */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: { type?: string; variant?: string; [key: string]: unknown };
}

export class RpcFailure extends Error {
  readonly code: number;
  readonly data: RpcErrorBody["data"];
  constructor(error: RpcErrorBody) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
  /** "ResidentError.NotFound" when the server names them. */
  get variant(): string {
    return this.data?.variant ?? "";
  }
}

export interface Session {
  user_id: string;
  access_token: string;
  refresh_token: string;
  email: string;
}

const KEY = "fz-console-session";

export function loadSession(): Session | null {
  const text = sessionStorage.getItem(KEY);
  if (!text) return null;
  try {
    return JSON.parse(text) as Session;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

let nextId = 1;

async function post(path: string, method: string, params: unknown, token: string | null): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers["authorization"] = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
      cache: "no-store",
    });
  } catch {
    throw new RpcFailure({ code: 0, message: "The server could not be reached." });
  }
  const text = await response.text();
  let body: { result?: unknown; error?: RpcErrorBody };
  try {
    body = JSON.parse(text);
  } catch {
    throw new RpcFailure({ code: response.status, message: `Not a JSON-RPC answer (HTTP ${response.status}).` });
  }
  if (body.error) throw new RpcFailure(body.error);
  return body.result;
}

/** Called when the session ends under the console (expired refresh token, revoked session). */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (callback: () => void): void => {
  onSignedOut = callback;
};

/** A call with the current session (if any). `path` is /rpc unless a domain endpoint is named. */
export async function call<T = Record<string, unknown>>(
  method: string,
  params: unknown = {},
  path = "/rpc",
): Promise<T> {
  const session = loadSession();
  try {
    return (await post(path, method, params, session?.access_token ?? null)) as T;
  } catch (err) {
    if (!(err instanceof RpcFailure) || err.variant !== "TokenExpired" || !session) throw err;
    const refreshed = await refresh(session);
    if (!refreshed) throw err;
    return (await post(path, method, params, refreshed.access_token)) as T;
  }
}

/**
 * One refresh at a time: refresh tokens are single-use, so calls that meet the expiry together (the page and the
 * navigation's pending count) share one refresh instead of the second one spending a used token and signing out.
 */
let refreshing: { token: string; done: Promise<Session | null> } | null = null;

function refresh(session: Session): Promise<Session | null> {
  if (refreshing?.token !== session.refresh_token) {
    const done = refreshOnce(session);
    refreshing = { token: session.refresh_token, done };
  }
  return refreshing.done;
}

async function refreshOnce(session: Session): Promise<Session | null> {
  try {
    const r = (await post("/rpc", "authservice.refresh_token", { token: session.refresh_token }, null)) as {
      access_token: string;
      refresh_token: string;
    };
    const next = { ...session, access_token: r.access_token, refresh_token: r.refresh_token };
    saveSession(next);
    return next;
  } catch {
    // Another page of this tab's session refreshed first (the token is single-use): use what it stored.
    const stored = loadSession();
    if (stored && stored.refresh_token !== session.refresh_token) return stored;
    saveSession(null);
    onSignedOut();
    return null;
  }
}
