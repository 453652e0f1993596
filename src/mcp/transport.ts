import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  MessageExtraInfo,
  RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** The SDK Protocol's request entry point: `connect` routes requests to it after classifying each message. */
export type DirectRequestPath = (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;

interface Pending {
  clientId: RequestId;
  resolve(response: JSONRPCResponse): void;
  finish(): void;
}

export interface RequestOptions {
  /** Milliseconds before the handler is aborted and the client gets a timeout error. */
  deadlineMs: number;
  /** Subscribes to the client going away (then the handler is aborted); returns the unsubscribe. */
  onClose?: (fn: () => void) => () => void;
}

/** JSON-RPC code of a request that ran past its deadline (an internal error: the client may retry). */
export const TIMEOUT_CODE = -32603;

/**
 * One transport shared by every HTTP request to one long-lived SDK `Server`. Each request gets a process-unique
 * internal id, so two clients that both send id 1 never see each other's answers; the client's id is restored on
 * the answer. The request's credentials ride along as that message's `authInfo`: the Server itself holds no
 * per-client state we rely on. Server-to-client requests are refused (stateless JSON responses cannot carry
 * them) and server notifications (progress, logging) are dropped for the same reason.
 */
export class MultiplexTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Set to the SDK's request path when the fast path is available (see `McpServerHost`). */
  direct: DirectRequestPath | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const pending of this.pending.values()) pending.finish();
    this.pending.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ("id" in message && !("method" in message)) {
      const internalId = message.id as number;
      const pending = this.pending.get(internalId);
      if (!pending) return; // answered already (timed out) or the client left
      this.pending.delete(internalId);
      pending.finish();
      pending.resolve({ ...message, id: pending.clientId } as JSONRPCResponse);
      return;
    }
    if ("id" in message) throw new Error("server-to-client requests are not supported on a stateless endpoint");
  }

  /** Hands one request to the Server and resolves with its answer under the client's id. */
  request(message: JSONRPCRequest, extra: MessageExtraInfo, options: RequestOptions): Promise<JSONRPCResponse> {
    const internalId = this.nextId++;
    return new Promise<JSONRPCResponse>((resolve) => {
      const cleanup = () => {
        clearTimeout(timer);
        unsubscribe?.();
      };
      const cancel = (reason: string) => {
        if (!this.pending.delete(internalId)) return;
        cleanup();
        // Aborts the handler's `extra.signal`; the Protocol then sends nothing for this id.
        this.onmessage?.({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: internalId, reason },
        });
        resolve({ jsonrpc: "2.0", id: message.id, error: { code: TIMEOUT_CODE, message: reason } });
      };
      const timer = setTimeout(() => cancel(`Request timed out after ${options.deadlineMs} ms`), options.deadlineMs);
      const unsubscribe = options.onClose?.(() => cancel("Client disconnected"));
      this.pending.set(internalId, { clientId: message.id, resolve, finish: cleanup });
      const internal: JSONRPCRequest = { ...message, id: internalId };
      if (this.direct) this.direct(internal, extra);
      else this.onmessage?.(internal, extra);
    });
  }

  /** Requests handed to the Server and not answered yet. */
  get inFlight(): number {
    return this.pending.size;
  }
}
