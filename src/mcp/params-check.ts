import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The SDK parses each request's params with zod inside its handler registry, and a failure there comes back as
 * `-32603` with the zod issue list as message. The methods we serve are checked here first, so a malformed
 * request gets `-32602` with a readable message instead (and never reaches the Server).
 */
export function paramsProblem(request: JSONRPCRequest): string | null {
  const params = request.params as unknown;
  if (request.method === "tools/call") {
    if (!isObject(params)) return "tools/call needs params { name, arguments }";
    if (typeof params["name"] !== "string") return "params.name must be the tool name (a string)";
    if (params["arguments"] !== undefined && !isObject(params["arguments"]))
      return "params.arguments must be an object";
    return null;
  }
  if (request.method === "resources/read") {
    if (!isObject(params) || typeof params["uri"] !== "string") return "resources/read needs params.uri (a string)";
    return null;
  }
  if (request.method === "initialize") {
    if (!isObject(params) || typeof params["protocolVersion"] !== "string") {
      return "initialize needs params.protocolVersion (a string)";
    }
    if (!isObject(params["capabilities"])) return "initialize needs params.capabilities (an object)";
    const info = params["clientInfo"];
    if (!isObject(info) || typeof info["name"] !== "string" || typeof info["version"] !== "string") {
      return "initialize needs params.clientInfo { name, version }";
    }
  }
  return null;
}
