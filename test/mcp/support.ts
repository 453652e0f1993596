import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";
import { Ajv } from "ajv";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { toCents } from "../../src/domain/money.ts";
import { McpEndpoint, type McpOptions } from "../../src/mcp/endpoint.ts";
import { fromRequest, toResponse } from "../../src/mcp/http.ts";
import type { CatalogTool } from "../../src/mcp/tools.ts";
import type { RpcContext } from "../../src/rpc/context.ts";
import type { Entry } from "../../src/rpc/dispatcher.ts";
import { RpcError } from "../../src/rpc/errors.ts";
import type { Runtime } from "../../src/rpc/runtime.ts";
import { moveOut } from "../../src/services/shared/money-out.ts";
import { type Client as SessionClient, startTestApp, type TestApp } from "../support/app.ts";
import { generateKey, sql, type TestKey } from "../support/helpers.ts";
import { toolPolicy } from "../support/tool-policy.ts";

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves a Hono app on a real port (0 = any free one) with @hono/node-server. */
export async function serveOnPort(app: Hono): Promise<Served> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The SDK client compiles an ajv validator for the outputSchema of every tool of every tools/list page it reads
 * (about 1 s of CPU per page of ~76 tools, 7-9 s for a whole list under load). The tests' clients compile a schema
 * when a tool result is first checked against it, with the SDK's own validator, once per schema text and worker.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  private readonly sdk = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  /** Schemas compiled so far. */
  get size(): number {
    return this.compiled.size;
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<unknown> | undefined;
    return (input) => {
      validate ??= this.compile(schema);
      return validate(input) as ReturnType<JsonSchemaValidator<T>>;
    };
  }

  private compile(schema: JsonSchemaType): JsonSchemaValidator<unknown> {
    const text = JSON.stringify(schema);
    let validate = this.compiled.get(text);
    if (!validate) {
      validate = this.sdk.getValidator(schema);
      this.compiled.set(text, validate);
    }
    return validate;
  }
}

const outputValidator = new LazySchemaValidator();

/** The SDK's own client over Streamable HTTP, sending the key as X-API-Key (or as a Bearer token). */
export async function mcpClient(base: string, key: string, as: "x-api-key" | "bearer" = "x-api-key"): Promise<Client> {
  const headers = as === "bearer" ? { authorization: `Bearer ${key}` } : { "x-api-key": key };
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "freezone-test", version: "1.0.0" }, { jsonSchemaValidator: outputValidator });
  await client.connect(transport);
  return client;
}

export interface RawReply {
  status: number;
  body: any;
}

/** One raw POST to /mcp (for the HTTP-level checks an SDK client would never let us send). */
export async function postMcp(base: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export const initializeMessage = (id: number | string, protocolVersion = "2024-11-05") => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "curl", version: "1.0" } },
});

/** The text content of a tool result, parsed. */
export function textJson(result: unknown): any {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0]?.text ?? "null");
}

export interface TestToolOptions {
  readOnly?: boolean;
  amountParam?: string | null;
  owner?: string;
}

const ajv = new Ajv({ strict: false });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tool for tests only, registered beside the manifest's through `McpOptions.extraTools`: it runs through the
 * whole policy and the real dispatcher, and answers who it ran as. `delay_ms` makes it slow (to reorder
 * completions), `fail` makes it raise a business error (`fail_after`: from that time on, so a call that passes
 * its dry run fails when the approved replay runs); with `amountParam`, `amount`/`currency` leave as a debit
 * would (first, before the delay and the failure), counted against the key where money moves.
 */
export function testTool(name: string, options: TestToolOptions = {}): CatalogTool {
  const inputSchema = {
    type: "object" as const,
    properties: {
      echo: { type: "string" },
      delay_ms: { type: "integer", minimum: 0, maximum: 5000 },
      fail: { type: "boolean" },
      fail_after: { type: "string" },
      amount: { type: "number" },
      currency: { type: "string" },
      password: { type: "string" },
      card_number: { type: "string" },
      note: { type: "string" },
    },
    additionalProperties: false,
  };
  const readOnly = options.readOnly ?? false;
  // A financial test tool moves its amount out where money moves (src/services/shared/money-out.ts), as a debit would.
  const spends = (options.amountParam ?? null) !== null;
  const defaultCurrency = options.owner === "CreditService" ? "USD" : "EUR";
  const entry = {
    name: `testservice.${name}`,
    kind: "service" as const,
    owner: options.owner ?? "TestService",
    op: name,
    domain: "platform",
    auth: "user",
    internal: false,
    ...(spends ? { spends: true } : {}),
    callerBinding: null,
    password: null,
    audit: null,
    mcp: toolPolicy(`freezone_test_${name}`, readOnly, { amountParam: options.amountParam ?? null }),
    errors: { McpApprovalError: ["InvalidInput"] },
    result: "TestResult",
    paramNames: Object.keys(inputSchema.properties),
    aliases: [],
    validateParams: ajv.compile(inputSchema),
    validateResult: ajv.compile({ type: "object" }),
    async invoke(ctx: RpcContext, raw: unknown) {
      const params = raw as {
        echo?: string;
        delay_ms?: number;
        fail?: boolean;
        fail_after?: string;
        amount?: number;
        currency?: string;
      };
      if (spends && params.amount !== undefined && params.amount > 0) {
        const out = { cents: toCents(params.amount), currency: params.currency ?? defaultCurrency };
        await moveOut(ctx, out, async () => true);
      }
      if (params.delay_ms) await sleep(params.delay_ms);
      const late = params.fail_after !== undefined && ctx.now() >= new Date(params.fail_after);
      if (params.fail || late)
        throw RpcError.app("McpApprovalError", "InvalidInput", "the test tool was asked to fail");
      return {
        user_id: ctx.caller?.userId ?? null,
        api_key_id: ctx.caller?.apiKeyId ?? null,
        echo: params.echo ?? null,
        amount: params.amount ?? null,
      };
    },
  };
  const tool = {
    name: `freezone_test_${name}`,
    description: `test tool ${name}`,
    inputSchema,
    outputSchema: { type: "object" as const },
    annotations: { readOnlyHint: readOnly, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  };
  return { tool, entry: entry as unknown as Entry };
}

/** An app's /mcp with extra test tools, served on a real port (the app's own /mcp stays as it is). */
export async function serveMcpWithTools(runtime: Runtime, tools: CatalogTool[], options: McpOptions = {}) {
  const endpoint = await McpEndpoint.create(runtime, { ...options, extraTools: tools, sweepIntervalS: 0 });
  const app = new Hono();
  app.all("/mcp", async (c) => toResponse(await endpoint.handle(fromRequest(c.req.raw))));
  const served = await serveOnPort(app);
  return {
    endpoint,
    url: served.url,
    close: async () => {
      await served.close();
      await endpoint.close();
    },
  };
}

/** A raw tools/call (faster than the SDK client for load; the HTTP answer as is). */
export async function callRaw(base: string, key: string, name: string, args: unknown, id: number | string = 1) {
  const r = await postMcp(
    base,
    { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } },
    { "x-api-key": key },
  );
  return r.body as { id: unknown; result?: any; error?: any };
}

export interface ServedMcp {
  t: TestApp;
  /** The app's own Hono routes (/rpc and /mcp) on a real port. */
  served: Served;
  /** A fresh user per test, owning `rw`. */
  owner: SessionClient;
  /** A readwrite MCP key of `owner`, minted by apikeyservice.generate_personal. */
  rw: TestKey;
  /** An SDK client (closed after the file) on `base` (default: `served`). */
  connect(key: string, as?: "x-api-key" | "bearer", base?: string): Promise<Client>;
  /** Every mcp_call_log row (the table is emptied before each test). */
  callLog(): Promise<any[]>;
}

/**
 * One app served on a port for the file, and before each test an empty mcp_call_log, a new key owner and a
 * readwrite key. Registers the vitest hooks; read the fields inside tests (they change per test).
 */
export function servedMcp(): ServedMcp {
  const clients: Client[] = [];
  const f = {
    connect: async (key: string, as: "x-api-key" | "bearer" = "x-api-key", base = f.served.url) => {
      const client = await mcpClient(base, key, as);
      clients.push(client);
      return client;
    },
    callLog: () => sql(f.t, "select * from mcp_call_log"),
  } as ServedMcp;
  beforeAll(async () => {
    f.t = await startTestApp();
    f.served = await serveOnPort(f.t.app.hono);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await f.served.close();
    await f.t.close();
  });
  beforeEach(async () => {
    await sql(f.t, "delete from mcp_call_log");
    f.owner = await f.t.register(`owner${Math.random()}@example.org`);
    f.rw = await generateKey(f.owner, { mcp_scope: "readwrite" });
  });
  return f;
}
