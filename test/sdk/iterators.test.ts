import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createClient } from "../../clients/ts/src/index.ts";
import { PASSWORD } from "../support/app.ts";
import { countingFetch, type ServedApp, serveTestApp } from "./support.ts";

// Issue 32 item 8: every list of the SDK has an async iterator beside it (`<op>_all`) that follows the list's own
// paging style against the real server: page/page_size (count up to total), cursor (follow next_cursor).
let served: ServedApp;
let url: string;
let admin: Awaited<ReturnType<ServedApp["t"]["admin"]>>;

beforeAll(async () => {
  served = await serveTestApp();
  url = `${served.base}/rpc`;
  admin = await served.t.admin();
});
afterAll(() => served.close());

async function signedIn(email: string, fetch?: typeof globalThis.fetch) {
  const client = createClient(fetch ? { url, fetch } : { url });
  const auth = await client.authservice.register({ email, password: PASSWORD });
  if (!("access_token" in auth)) throw new Error("a second factor was asked");
  client.useSession(auth);
  return { client, userId: auth.user_id };
}

describe("page style", () => {
  test("credit transactions two a page: every row once, one call per page and none after the last", async () => {
    const counting = countingFetch();
    const { client, userId } = await signedIn("pages@example.org", counting.fetch);
    for (let i = 1; i <= 5; i++) {
      await admin.callOk("creditservice.add_bonus", { user_id: userId, amount: i, description: `bonus ${i}` });
    }
    const seen: number[] = [];
    for await (const row of client.creditservice.list_transactions_all({ page_size: 2 })) seen.push(row.amount);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
    // register, then pages 1, 2, 3 (total 5 reached on page 3: no fourth call).
    expect(counting.sent.filter((m) => m === "creditservice.list_transactions")).toHaveLength(3);
  });

  test("breaking out of the loop stops the calls", async () => {
    const counting = countingFetch();
    const { client, userId } = await signedIn("early@example.org", counting.fetch);
    for (let i = 1; i <= 4; i++)
      await admin.callOk("creditservice.add_bonus", { user_id: userId, amount: i, description: "b" });
    for await (const _row of client.creditservice.list_transactions_all({ page_size: 1 })) break;
    expect(counting.sent.filter((m) => m === "creditservice.list_transactions")).toHaveLength(1);
  });
});

describe("cursor style", () => {
  test("records found through next_cursor, and a list of sids, each item once", async () => {
    const { client, userId } = await signedIn("cursor@example.org");
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const key = await client.apikeyservice.generate_personal({ name: `key ${i}`, password: PASSWORD });
      made.push(key.key_id);
    }
    const found: string[] = [];
    for await (const key of client.apikey.find_all({ query: JSON.stringify({ user_id: userId }), limit: 2 })) {
      found.push(key.sid);
    }
    expect(found.sort()).toEqual([...made].sort());
    const listed: string[] = [];
    for await (const sid of client.apikey.list_all({ limit: 3 })) listed.push(sid);
    expect(listed.sort()).toEqual([...made].sort());
  });
});
