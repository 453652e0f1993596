import type { JSONRPCRequest, JSONRPCResponse } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { accessLog, callerFields, REQUEST_ID_HEADER, requestIdFrom, roundMs } from "../http/request-log.ts";
import type { Caller } from "../rpc/context.ts";
import type { McpHttpAnswer, McpHttpRequest } from "./http.ts";

/** A tools/call answer that failed: a JSON-RPC error, or a tool result marked `isError`. */
function failed(answer: JSONRPCResponse | { error: unknown }): boolean {
  if ("error" in answer) return true;
  const result = (answer as { result?: { isError?: unknown } }).result;
  return result?.isError === true;
}

/**
 * The one "mcp" line of an HTTP request to `/mcp` (src/app/request-log.ts): its JSON-RPC methods (and the tool of a
 * tools/call), the caller, HTTP status, how many answers failed, the duration and the request id, also answered in
 * X-Request-Id.
 */
export class McpRequestLine {
  readonly requestId: string;
  private readonly started = performance.now();
  private methods: string[] = [];
  private tool: string | null = null;
  private caller: ReturnType<typeof callerFields> = callerFields(null);
  private failures = 0;

  constructor(request: McpHttpRequest) {
    this.requestId = requestIdFrom(request.header(REQUEST_ID_HEADER));
  }

  requests(requests: JSONRPCRequest[]): void {
    this.methods = requests.map((r) => r.method);
    const call = requests.find((r) => r.method === "tools/call");
    const name = (call?.params as { name?: unknown } | undefined)?.name;
    if (typeof name === "string") this.tool = name.slice(0, 128);
  }

  authenticated(caller: Caller | null): void {
    this.caller = callerFields(caller, caller === null);
  }

  answered(answers: (JSONRPCResponse | { error: unknown })[]): void {
    this.failures = answers.filter(failed).length;
  }

  /** Writes the line and returns the answer with its X-Request-Id. */
  write(log: Logger, answer: McpHttpAnswer): McpHttpAnswer {
    const ok = answer.status < 400 && this.failures === 0;
    const method = this.methods.length === 1 ? this.methods[0] : this.methods.length > 1 ? "batch" : undefined;
    accessLog(log).info(
      {
        requestId: this.requestId,
        ...(method ? { method } : {}),
        ...(this.methods.length > 1 ? { calls: this.methods.length } : {}),
        ...(this.tool ? { tool: this.tool } : {}),
        ...this.caller,
        status: answer.status,
        ms: roundMs(performance.now() - this.started),
        outcome: ok ? "ok" : "error",
        ...(this.failures > 0 ? { failed: this.failures } : {}),
      },
      "mcp",
    );
    return { ...answer, headers: { ...answer.headers, [REQUEST_ID_HEADER]: this.requestId } };
  }
}
