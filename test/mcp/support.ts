import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Hono } from "hono";

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

/** The SDK's own client over Streamable HTTP, sending the key as X-API-Key (or as a Bearer token). */
export async function mcpClient(base: string, key: string, as: "x-api-key" | "bearer" = "x-api-key"): Promise<Client> {
  const headers = as === "bearer" ? { authorization: `Bearer ${key}` } : { "x-api-key": key };
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "freezone-test", version: "1.0.0" });
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
