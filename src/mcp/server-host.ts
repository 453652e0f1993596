import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { type McpAuth, mcpAuthOf } from "./auth.ts";
import type { ResourceCatalog } from "./resources.ts";
import type { ToolPage } from "./tools.ts";
import { type DirectRequestPath, MultiplexTransport } from "./transport.ts";

export type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolHandlers {
  list(auth: McpAuth, cursor: string | undefined): Promise<ToolPage>;
  call(auth: McpAuth, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult>;
}

export const SERVER_INFO = { name: "freezone-registry", version: "1.0.0" };

/** Identity comes only from the message's authInfo, which the HTTP layer set from this request's API key. */
function authOf(extra: HandlerExtra): McpAuth {
  const auth = mcpAuthOf(extra.authInfo);
  if (!auth) throw new Error("MCP request without authentication reached the Server");
  return auth;
}

/**
 * The one SDK `Server` of the process, behind the multiplexing transport. Handlers never read
 * getClientVersion/getClientCapabilities (a shared Server keeps the last caller's) and never send requests to
 * the client (no sampling, elicitation or roots).
 */
export class McpServerHost {
  readonly server: Server;
  readonly transport = new MultiplexTransport();
  /**
   * "direct" when requests skip `connect`'s message sorting (an SDK internal, checked at start); plain
   * `tools/call` requests then skip the Protocol too (direct-call.ts).
   */
  path: "direct" | "public" = "public";

  private constructor(
    readonly handlers: ToolHandlers,
    resources: ResourceCatalog,
    fast: boolean,
  ) {
    this.server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} } });
    // The public contract as resources (resources.ts); no templates and no prompts, answered as empty lists.
    this.server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => {
      authOf(extra);
      return resources.list();
    });
    this.server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
      authOf(extra);
      return resources.read(request.params.uri);
    });
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
    this.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
    this.server.setRequestHandler(
      ListToolsRequestSchema,
      (request, extra) => handlers.list(authOf(extra), request.params?.cursor) as never,
    );
    const call = (request: CallToolRequest, extra: HandlerExtra) =>
      handlers.call(authOf(extra), request.params.name, request.params.arguments, extra.signal);
    // Server's own tools/call wrapper parses the request a second time and the result once more with zod; our
    // results are built by tool-handlers.ts in the CallToolResult shape, so the fast path registers on Protocol.
    if (fast) Protocol.prototype.setRequestHandler.call(this.server, CallToolRequestSchema, call as never);
    else this.server.setRequestHandler(CallToolRequestSchema, call);
  }

  static async start(
    handlers: ToolHandlers,
    resources: ResourceCatalog,
    log: Logger,
    preferDirect = true,
  ): Promise<McpServerHost> {
    const host = new McpServerHost(handlers, resources, preferDirect);
    await host.server.connect(host.transport);
    if (preferDirect) host.useDirectPath(log);
    return host;
  }

  /**
   * `connect` classifies every incoming message with three zod checks before it reaches `_onrequest`; we already
   * validated the message with JSONRPCMessageSchema and know it is a request, so we hand it on directly. This is
   * an SDK internal (pinned SDK version): if it is missing we keep the public path and say so.
   */
  private useDirectPath(log: Logger): void {
    const internal = (this.server as unknown as { _onrequest?: unknown })._onrequest;
    if (typeof internal !== "function") {
      log.warn("MCP: the SDK has no Protocol._onrequest; using the public message path (slower)");
      return;
    }
    this.transport.direct = (internal as DirectRequestPath).bind(this.server);
    this.path = "direct";
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
