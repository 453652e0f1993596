/**
 * The bench's personal API keys, both without call limits (0 = unlimited: the default 60 calls an hour would stop a
 * load run at once, and counters then are the only policy cost): a script key (no mcp_scope: /rpc only) and an
 * agent key (mcp_scope readwrite: /rpc and /mcp). One user holds both.
 */
import { call } from "./setup.ts";

const PASSWORD = "Bench-run keys correct horse battery 42";

export interface BenchKeys {
  script: string;
  agent: string;
}

async function generate(rpcUrl: string, token: string, name: string, mcpScope: string | null): Promise<string> {
  const answer = await call(
    rpcUrl,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "apikeyservice.generate_personal",
      params: {
        name,
        password: PASSWORD,
        ...(mcpScope === null ? {} : { mcp_scope: mcpScope }),
        max_calls_per_hour: 0,
        max_calls_per_day: 0,
      },
    },
    { authorization: `Bearer ${token}` },
  );
  const apiKey = (answer.json.result as { api_key?: string } | undefined)?.api_key;
  if (!apiKey) throw new Error(`apikeyservice.generate_personal (${name}) failed: ${answer.text}`);
  return apiKey;
}

export async function benchKeys(baseUrl: string): Promise<BenchKeys> {
  const rpcUrl = `${baseUrl}/rpc`;
  const reg = await call(rpcUrl, {
    jsonrpc: "2.0",
    id: 1,
    method: "authservice.register",
    params: { email: `bench-keys-${process.pid}-${Date.now()}@example.com`, password: PASSWORD },
  });
  const token = (reg.json.result as { access_token?: string } | undefined)?.access_token;
  if (!token) throw new Error(`authservice.register failed: ${reg.text}`);
  return {
    script: await generate(rpcUrl, token, "bench script", null),
    agent: await generate(rpcUrl, token, "bench agent", "readwrite"),
  };
}
