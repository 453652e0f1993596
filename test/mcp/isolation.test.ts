import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { count, generateKey } from "../support/helpers.ts";
import { postMcp, serveMcpWithTools, testTool } from "./support.ts";

let t: TestApp;
const unlimited = { max_calls_per_hour: 0, max_calls_per_day: 0 };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * Two keys of two users send 16 requests each, all at once, with the same JSON-RPC ids (1..16 for both). A slow
 * tool with a random delay makes the answers complete out of order; every answer must carry the id that was sent,
 * the echo that was sent and the identity of the key that sent it.
 */
async function isolationRound(url: string, keys: { key: string; userId: string; keyId: string }[]) {
  const completions: string[] = [];
  const requests = keys.flatMap((k, which) =>
    Array.from({ length: 16 }, (_, i) => {
      const id = i + 1;
      const echo = `key${which}-req${id}`;
      const delay = Math.floor(Math.random() * 40);
      return postMcp(
        url,
        {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "freezone_test_slow", arguments: { echo, delay_ms: delay } },
        },
        { "x-api-key": k.key },
      ).then((reply) => {
        completions.push(echo);
        const r = reply.body;
        const got = r.result?.structuredContent;
        if (!got) return { mismatch: 0, failed: 1, detail: JSON.stringify(r).slice(0, 200) };
        const ok = r.id === id && got.echo === echo && got.user_id === k.userId && got.api_key_id === k.keyId;
        return { mismatch: ok ? 0 : 1, failed: 0, detail: "" };
      });
    }),
  );
  const outcomes = await Promise.all(requests);
  const sent = keys.flatMap((_, w) => Array.from({ length: 16 }, (_, i) => `key${w}-req${i + 1}`));
  return {
    /** Answers that carry another request's id, echo or caller. */
    mismatches: outcomes.reduce((n, o) => n + o.mismatch, 0),
    /** Answers without a result at all (shown, so a failure says what came back). */
    failures: outcomes.filter((o) => o.failed).map((o) => o.detail),
    reordered: completions.join() !== sent.join(),
  };
}

describe.each([
  ["the SDK's request path (direct)", true],
  ["the SDK's public connect path", false],
])("request isolation through %s", (_label, direct) => {
  test("32 concurrent requests from two keys with the same ids: each gets only its own answers", async () => {
    const mcp = await serveMcpWithTools(t.app.runtime, [testTool("slow", { readOnly: true })], { direct });
    try {
      expect(mcp.endpoint.host.path).toBe(direct ? "direct" : "public");
      const keys = [];
      for (const name of ["ann", "ben"]) {
        const user = await t.register(`${name}${Math.random()}@example.org`);
        keys.push({ ...(await generateKey(user, unlimited)), userId: user.userId });
      }
      let reordered = false;
      for (let round = 0; round < 5; round++) {
        const r = await isolationRound(mcp.url, keys);
        expect(r.failures).toEqual([]);
        expect(r.mismatches).toBe(0);
        reordered ||= r.reordered;
      }
      expect(reordered).toBe(true);
      expect(mcp.endpoint.host.transport.inFlight).toBe(0);
    } finally {
      await mcp.close();
    }
  });
});

describe("deadlines", () => {
  test("a request past its deadline is answered with a timeout error and its handler is aborted", async () => {
    const mcp = await serveMcpWithTools(t.app.runtime, [testTool("slow", { readOnly: true })], { deadlineMs: 100 });
    try {
      const user = await t.register(`slow${Math.random()}@example.org`);
      const k = await generateKey(user, unlimited);
      const started = Date.now();
      const r = await postMcp(
        mcp.url,
        {
          jsonrpc: "2.0",
          id: "late",
          method: "tools/call",
          params: { name: "freezone_test_slow", arguments: { delay_ms: 1000 } },
        },
        { "x-api-key": k.key },
      );
      expect(Date.now() - started).toBeLessThan(900);
      expect(r.body).toEqual({
        jsonrpc: "2.0",
        id: "late",
        error: { code: -32603, message: "Request timed out after 100 ms" },
      });
      expect(mcp.endpoint.host.transport.inFlight).toBe(0);
      // The tool had started, so it finishes in the background and its call is still logged.
      const logged = () => count(t, "mcp_call_log", "api_key_id = ?", [k.keyId]);
      const until = Date.now() + 5000;
      while ((await logged()) === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await logged()).toBe(1);
      const quick = await postMcp(
        mcp.url,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "freezone_test_slow", arguments: { delay_ms: 1 } },
        },
        { "x-api-key": k.key },
      );
      expect(quick.body.result.structuredContent.user_id).toBe(user.userId);
    } finally {
      await mcp.close();
    }
  });
});

describe("batches", () => {
  test("a batch of requests answers an array with each id, in order", async () => {
    const mcp = await serveMcpWithTools(t.app.runtime, [testTool("slow", { readOnly: true })]);
    try {
      const user = await t.register(`batch${Math.random()}@example.org`);
      const k = await generateKey(user, unlimited);
      const batch = [3, 2, 1].map((id) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "freezone_test_slow", arguments: { echo: `e${id}`, delay_ms: id * 20 } },
      }));
      const r = await postMcp(mcp.url, [...batch, { jsonrpc: "2.0", method: "notifications/initialized" }], {
        "x-api-key": k.key,
      });
      expect(r.body.map((a: any) => [a.id, a.result.structuredContent.echo])).toEqual([
        [3, "e3"],
        [2, "e2"],
        [1, "e1"],
      ]);
    } finally {
      await mcp.close();
    }
  });
});
