import type { JSONRPCRequest, JSONRPCResponse, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { McpAuth } from "./auth.ts";
import type { ToolHandlers } from "./server-host.ts";
import { type RequestOptions, TIMEOUT_CODE } from "./transport.ts";

/**
 * A `tools/call` whose params hold only `name` and `arguments` (checked by paramsProblem first): nothing in it
 * needs the SDK's Protocol (no `_meta` progress token or related task, no task creation), and the SDK's parse of
 * it would change nothing but drop an own `__proto__` key from the arguments, so such a call takes the SDK's path.
 */
export function isPlainToolCall(request: JSONRPCRequest): boolean {
  if (request.method !== "tools/call") return false;
  const params = request.params as Record<string, unknown>;
  for (const key of Object.keys(params)) if (key !== "name" && key !== "arguments") return false;
  const args = params["arguments"];
  return args === undefined || !Object.hasOwn(args as object, "__proto__");
}

/** The error answer Protocol._onrequest makes of what a handler threw. */
function errorAnswer(id: RequestId, error: { code?: unknown; message?: string; data?: unknown }): JSONRPCResponse {
  const code = Number.isSafeInteger(error.code) ? (error.code as number) : -32603;
  const body = {
    code,
    message: error.message ?? "Internal error",
    ...(error.data !== undefined && { data: error.data }),
  };
  return { jsonrpc: "2.0", id, error: body } as unknown as JSONRPCResponse;
}

/**
 * Runs a plain `tools/call` on the tool handler without the SDK's Protocol and multiplexing transport (their
 * promise chain, abort bookkeeping and second zod pass cost more than a small call), with the same answer: the
 * result as `{ result, jsonrpc, id }`, a thrown error as Protocol shapes it, and the transport's deadline and
 * client-gone handling (a timeout error answered at once, the handler's signal aborted, its late answer dropped).
 */
export function callDirectly(
  handlers: ToolHandlers,
  message: JSONRPCRequest,
  auth: McpAuth,
  options: RequestOptions,
): Promise<JSONRPCResponse> {
  const params = message.params as { name: string; arguments?: Record<string, unknown> };
  const controller = new AbortController();
  return new Promise<JSONRPCResponse>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: (() => void) | undefined;
    let done = false;
    const finish = (answer: JSONRPCResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe?.();
      resolve(answer);
    };
    const cancel = (reason: string) => {
      if (done) return;
      controller.abort(reason);
      finish({ jsonrpc: "2.0", id: message.id, error: { code: TIMEOUT_CODE, message: reason } } as JSONRPCResponse);
    };
    timer = setTimeout(() => cancel(`Request timed out after ${options.deadlineMs} ms`), options.deadlineMs);
    unsubscribe = options.onClose?.(() => cancel("Client disconnected"));
    handlers.call(auth, params.name, params.arguments, controller.signal).then(
      (result) => finish({ result, jsonrpc: "2.0", id: message.id } as JSONRPCResponse),
      (error: unknown) => finish(errorAnswer(message.id, error as { code?: unknown; message?: string })),
    );
  });
}
