import type { JSONRPCResponse, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import type { Hono } from "hono";
import { type FxProvider, SandboxFxProvider } from "../integrations/fx/index.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { expireApprovals } from "./approval-store.ts";
import { authenticateMcp, mcpAuthInfo } from "./auth.ts";
import { CallLogWriter } from "./call-log.ts";
import { type McpDeps, registerMcpDeps } from "./deps.ts";
import { callDirectly, isPlainToolCall } from "./direct-call.ts";
import {
  checkHttp,
  fromRequest,
  isRequest,
  jsonResponse,
  type McpHttpAnswer,
  type McpHttpRequest,
  readMessages,
  requestInfo,
  rpcErrorBody,
  toResponse,
} from "./http.ts";
import { paramsProblem } from "./params-check.ts";
import { PolicyCache } from "./policy-cache.ts";
import { McpRequestLine } from "./request-line.ts";
import { ResourceCatalog } from "./resources.ts";
import { McpServerHost } from "./server-host.ts";
import { resultJson, toolHandlers } from "./tool-handlers.ts";
import { type CatalogTool, ToolCatalog } from "./tools.ts";

export interface McpOptions {
  fx?: FxProvider;
  /** Milliseconds a request may run before its handler is aborted (default 30 s). */
  deadlineMs?: number;
  /** How long an approval request stays open (default one hour, the seed's). */
  approvalTtlS?: number;
  /** Seconds between expiry sweeps of approvals (default 60; 0 = none). */
  sweepIntervalS?: number;
  /** Use the SDK's request path directly (default) or only its public `connect` path. */
  direct?: boolean;
  /** Extra tools beside the manifest's (tests register a slow tool here). */
  extraTools?: CatalogTool[];
}

/**
 * `POST /mcp`: MCP Streamable HTTP, stateless, JSON responses, on one long-lived SDK Server per app. Each HTTP
 * request is authenticated by its API key, checked, and its requests multiplexed onto the Server.
 */
export class McpEndpoint {
  private sweep: NodeJS.Timeout | null = null;

  private constructor(
    readonly deps: McpDeps,
    readonly host: McpServerHost,
    private readonly deadlineMs: number,
  ) {}

  static async create(runtime: Runtime, options: McpOptions = {}): Promise<McpEndpoint> {
    const catalog = new ToolCatalog(runtime.registry, options.extraTools ?? []);
    const deps: McpDeps = {
      runtime,
      catalog,
      fx: options.fx ?? new SandboxFxProvider(),
      callLog: new CallLogWriter(runtime.orm, runtime.log),
      policies: await PolicyCache.start(runtime.orm, runtime.log),
      approvalTtlS: options.approvalTtlS ?? 3600,
    };
    registerMcpDeps(deps);
    const resources = new ResourceCatalog(runtime.openrpc);
    const host = await McpServerHost.start(toolHandlers(deps), resources, runtime.log, options.direct ?? true);
    const endpoint = new McpEndpoint(deps, host, options.deadlineMs ?? 30_000);
    const every = options.sweepIntervalS ?? 60;
    if (every > 0) {
      endpoint.sweep = setInterval(() => endpoint.expireStale(), every * 1000);
      endpoint.sweep.unref();
    }
    return endpoint;
  }

  private expireStale(): void {
    const { orm, config, log } = this.deps.runtime;
    expireApprovals(orm.em.fork(), config.clock()).catch((err: unknown) => log.error({ err }, "approval sweep failed"));
  }

  /** One HTTP request to /mcp, and its line in the log (McpRequestLine). */
  async handle(request: McpHttpRequest): Promise<McpHttpAnswer> {
    const line = new McpRequestLine(request);
    return line.write(this.deps.runtime.log, await this.answer(request, line));
  }

  private async answer(request: McpHttpRequest, line: McpRequestLine): Promise<McpHttpAnswer> {
    const { config } = this.deps.runtime;
    const refused = checkHttp(request, config);
    if (refused) return refused;
    const body = await readMessages(request, config);
    if ("refusal" in body) return body.refusal;
    const requests = body.messages.filter(isRequest);
    line.requests(requests);
    const firstId = requests[0]?.id ?? null;
    // Raw SQL on the shared pool, as /rpc checks a key: no unit of work to fork.
    const auth = await authenticateMcp(this.deps.runtime.orm.em, request.header, config.clock());
    line.authenticated("error" in auth ? null : auth.caller);
    if ("error" in auth) return jsonResponse(auth.status, rpcErrorBody(firstId, auth.error));
    // Notifications and client responses need no answer on a stateless endpoint.
    if (requests.length === 0) return { status: 202, body: null, headers: {} };
    const info = requestInfo(request, body.text, line.requestId);
    const mcpAuth = { caller: auth.caller, request: info };
    // What the SDK's path needs beside the message; plain tools/call requests (direct-call.ts) need none of it.
    let extra: MessageExtraInfo | null = null;
    const sdkExtra = (): MessageExtraInfo => {
      extra ??= { authInfo: mcpAuthInfo(mcpAuth), requestInfo: { headers: info.headers } };
      return extra;
    };
    const options = { deadlineMs: this.deadlineMs, onClose: request.onClose };
    const direct = this.host.path === "direct";
    let listed = false;
    const answers = await Promise.all(
      requests.map((r) => {
        const problem = paramsProblem(r);
        if (problem)
          return { jsonrpc: "2.0" as const, id: r.id, error: { code: -32602, message: `Invalid params: ${problem}` } };
        // One tool list per request: a batch of copies would multiply the answer without telling more.
        if (r.method === "tools/list" && listed) {
          return {
            jsonrpc: "2.0" as const,
            id: r.id,
            error: { code: -32600, message: "tools/list is answered once per batch" },
          };
        }
        if (r.method === "tools/list") listed = true;
        if (direct && isPlainToolCall(r)) return callDirectly(this.host.handlers, r, mcpAuth, options);
        return this.host.transport.request(r, sdkExtra(), options);
      }),
    );
    line.answered(answers);
    const texts = answers.map((a) => this.serialize(a));
    return jsonResponse(200, body.batch ? `[${texts.join(",")}]` : (texts[0] as string));
  }

  private serialize(answer: JSONRPCResponse): string {
    const result = "result" in answer ? (answer.result as object) : null;
    if (!result) return JSON.stringify(answer);
    // tools/list pages are the same objects for every key with the same policy: serialised once each.
    const page = this.deps.catalog.pageJson(result);
    if (page !== undefined) return `{"jsonrpc":"2.0","id":${JSON.stringify(answer.id)},"result":${page}}`;
    // A tool result carries its JSON text (its value serialized once); spliced in the SDK's key order.
    const text = resultJson(result);
    if (text === undefined || !inSdkOrder(answer)) return JSON.stringify(answer);
    return `{"result":${text},"jsonrpc":"2.0","id":${JSON.stringify(answer.id)}}`;
  }

  async close(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    await this.host.close();
    await this.deps.policies.close();
  }
}

/** The keys of an answer as the SDK's Protocol makes it (`{ result, jsonrpc, id }`), which `serialize` splices. */
function inSdkOrder(answer: JSONRPCResponse): boolean {
  const keys = Object.keys(answer);
  return (
    keys.length === 3 && keys[0] === "result" && keys[1] === "jsonrpc" && keys[2] === "id" && answer.jsonrpc === "2.0"
  );
}

/** Mounts `/mcp` (POST; GET and DELETE answer 405) on the app. */
export async function mountMcp(app: Hono, runtime: Runtime, options: McpOptions = {}): Promise<McpEndpoint> {
  const endpoint = await McpEndpoint.create(runtime, options);
  app.all("/mcp", async (c) => toResponse(await endpoint.handle(fromRequest(c.req.raw))));
  return endpoint;
}
