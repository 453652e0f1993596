import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { closeInstances, type Instance, instancesOnOneSchema } from "../support/app.ts";
import { count, insertApiKey, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { callRaw, serveMcpWithTools, testTool } from "./support.ts";

const url = process.env["DATABASE_URL"];

/** Two app instances, each with its own ORM (connection pool) and /mcp, on one PostgreSQL schema. */
describe.skipIf(!url)("MCP limits across two instances on one PostgreSQL (needs DATABASE_URL)", () => {
  const instances: (Instance & { mcp: Awaited<ReturnType<typeof serveMcpWithTools>> })[] = [];

  beforeAll(async () => {
    for (const instance of await instancesOnOneSchema(url ?? "", "mcp_pair")) {
      const mcp = await serveMcpWithTools(instance.app.runtime, [
        testTool("echo", { readOnly: true }),
        testTool("pay", { amountParam: "amount" }),
      ]);
      instances.push({ ...instance, mcp });
    }
  });

  afterAll(async () => {
    for (const i of instances) await i.mcp.close();
    await closeInstances(instances);
  });

  test("50 simultaneous calls spread over both instances against a limit of 10 let exactly 10 through", async () => {
    const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const user = await insertRow(one.orm, "User", { email: "pair-mcp@example.org", password_hash: "x", roles: [] });
    const k = await insertApiKey(one.orm, String(user["sid"]), { max_calls_per_hour: 10 });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => callRaw((i % 2 ? one : two).mcp.url, k.key, "freezone_test_echo", {}, i)),
    );
    expect(replies.filter((r) => r.result && !r.result.isError)).toHaveLength(10);
    const pay = await insertApiKey(one.orm, String(user["sid"]), { max_calls_per_hour: 0, daily_spending_limit: 100 });
    const payments = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        callRaw((i % 2 ? one : two).mcp.url, pay.key, "freezone_test_pay", { amount: 10 }, i),
      ),
    );
    expect(payments.filter((r) => r.result && !r.result.isError)).toHaveLength(10);
    expect(
      await count(one.orm, "mcp_call_log", "api_key_id in (?, ?) and result_status = 'success'", [k.keyId, pay.keyId]),
    ).toBe(20);
  });

  test("a policy change made through one instance applies on the other at once (the cached policy is dropped)", async () => {
    const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    expect(two.mcp.endpoint.deps.policies.caching).toBe(true);
    const user = await insertRow(one.orm, "User", { email: "pair-policy@example.org", password_hash: "x", roles: [] });
    const k = await insertApiKey(one.orm, String(user["sid"]), { max_calls_per_hour: 0 });
    expect((await callRaw(two.mcp.url, k.key, "freezone_test_echo", {})).result.isError).toBeFalsy();
    await sql(one.orm, "update api_key set blocked_tool_patterns = 'freezone_test_*' where sid = ?", [k.keyId]);
    let refused = false;
    const until = Date.now() + 2000;
    while (!refused && Date.now() < until) {
      const r = await callRaw(two.mcp.url, k.key, "freezone_test_echo", {});
      refused = r.result.isError === true && JSON.parse(r.result.content[0].text).variant === "ScopeDenied";
    }
    expect(refused).toBe(true);
  });
});
