import type { MethodMap, MethodName } from "../../generated/methods.ts";

export interface ReplyError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** One JSON-RPC reply: the method's result (typed from the spec), or the error object as API.md shapes it. */
export type Reply<M extends MethodName> = { result: MethodMap[M]["result"] } | { error: ReplyError };

/** Sends a request to the app: in process (`App.fetch`) or over HTTP (`--url`). */
export type Send = (request: Request) => Promise<Response>;

export class DemoError extends Error {}

/** A skipped step: the report says why, and a later run with what was missing finishes it. */
export class Skipped extends Error {}

let nextId = 1;

/** JSON-RPC over the public endpoint, as any client calls it. */
export class RpcClient {
  constructor(
    private readonly send: Send,
    private readonly base: string,
  ) {}

  async call<M extends MethodName>(
    method: M,
    params: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<M>> {
    const res = await this.send(
      new Request(`${this.base}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
      }),
    );
    const body = (await res.json()) as Reply<M>;
    if (!("result" in body) && !("error" in body))
      throw new DemoError(`${method}: HTTP ${res.status}, no JSON-RPC reply`);
    return body;
  }

  /** A raw JSON-RPC body (a provider's signed webhook) posted to /rpc. */
  async post(body: string, headers: Record<string, string>): Promise<Reply<MethodName>> {
    const res = await this.send(
      new Request(`${this.base}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      }),
    );
    return (await res.json()) as Reply<MethodName>;
  }

  /** The result; a DemoError naming the method and the error otherwise. */
  async ok<M extends MethodName>(
    method: M,
    params: unknown,
    headers: Record<string, string> = {},
  ): Promise<MethodMap[M]["result"]> {
    const reply = await this.call(method, params, headers);
    if ("error" in reply)
      throw new DemoError(`${method}: ${reply.error.message} ${JSON.stringify(reply.error.data ?? {})}`);
    return reply.result;
  }

  /** A client whose calls carry a session token. */
  as(token: string): Session {
    return new Session(this, { authorization: `Bearer ${token}` });
  }
}

export class Session {
  constructor(
    readonly rpc: RpcClient,
    readonly headers: Record<string, string>,
  ) {}

  call<M extends MethodName>(method: M, params: unknown = {}): Promise<Reply<M>> {
    return this.rpc.call(method, params, this.headers);
  }

  ok<M extends MethodName>(method: M, params: unknown = {}): Promise<MethodMap[M]["result"]> {
    return this.rpc.ok(method, params, this.headers);
  }
}
