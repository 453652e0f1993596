import type { EntityManager } from "@mikro-orm/postgresql";
import { authenticateApiKey } from "../auth/api-keys.ts";
import { TOKEN_PREFIX } from "../auth/tokens.ts";
import { BOTH_CREDENTIALS, readCredentials } from "../http/credentials.ts";
import type { Caller, RequestInfo } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** Who sent one MCP request: the API key's owner as caller (with the key's id and scope) and the request facts. */
export interface McpAuth {
  caller: Caller;
  request: RequestInfo;
}

/** The SDK's authInfo of one request, tied to our McpAuth without going through its untyped `extra` bag. */
const authByInfo = new WeakMap<object, McpAuth>();

export function mcpAuthInfo(auth: McpAuth) {
  const info = {
    token: "",
    clientId: auth.caller.apiKeyId ?? "",
    scopes: [auth.caller.mcpScope ?? ""],
    extra: {},
  };
  authByInfo.set(info, auth);
  return info;
}

/** The McpAuth an authInfo was made for (undefined for any other object). */
export function mcpAuthOf(info: object | undefined): McpAuth | undefined {
  return info ? authByInfo.get(info) : undefined;
}

export type McpAuthOutcome = { caller: Caller } | { status: 401 | 403; error: RpcError };

const isKey = (value: string) =>
  value.startsWith(TOKEN_PREFIX.personalKey) || value.startsWith(TOKEN_PREFIX.resellerKey);

/**
 * `/mcp` takes an API key in `X-API-Key` or `Authorization: Bearer` (seed 001 Authentication 2), checked on every
 * request so a revocation bites at once. No, unknown, revoked or expired key: 401 with -32001; a key without
 * mcp_scope: 403 with the seed's -32000 error; a suspended owner: 403 with -32002.
 */
export async function authenticateMcp(
  em: EntityManager,
  header: (name: string) => string | null,
  now: Date,
): Promise<McpAuthOutcome> {
  const credentials = readCredentials(header);
  if (credentials.both) return { status: 401, error: RpcError.unauthenticated("InvalidCredentials", BOTH_CREDENTIALS) };
  const key = credentials.apiKey ?? credentials.bearer;
  if (!key) return { status: 401, error: RpcError.unauthenticated("MissingCredentials", "an API key is required") };
  if (!isKey(key)) return { status: 401, error: RpcError.unauthenticated("InvalidCredentials", "invalid API key") };
  try {
    const caller = await authenticateApiKey(em, key, now);
    if (caller.mcpScope !== "read" && caller.mcpScope !== "readwrite") {
      return { status: 403, error: RpcError.app("AuthError", "NoMcpAccess") };
    }
    return { caller };
  } catch (err) {
    if (err instanceof RpcError) return { status: err.code === -32001 ? 401 : 403, error: err };
    throw err;
  }
}
