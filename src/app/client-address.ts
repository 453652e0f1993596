import type { Context } from "hono";
import { clientAddress } from "../http/credentials.ts";

/** The client's address of a request served through Hono on @hono/node-server (the socket's, or a trusted proxy's). */
export function honoClientAddress(c: Context, trustProxy: boolean): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return clientAddress((name) => c.req.header(name), env?.incoming?.socket?.remoteAddress, trustProxy);
}
