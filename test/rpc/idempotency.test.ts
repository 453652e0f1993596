import { beforeEach, describe, expect, test } from "vitest";
import { fund, walletOf } from "../credit/support.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { count, generateKey, sql } from "../support/helpers.ts";

// Issue 32 item 7: an Idempotency-Key on /rpc makes a write safe to retry. One execution per (caller, key); the
// same request again answers the kept answer; another request with the key is refused; kept 24 hours, sealed.

let t: TestApp;
let admin: Client;
let alice: Client;
let nextId = 1;

beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  alice = await t.register("alice@example.org");
  await fund(admin, alice.userId, 50);
});

interface Answer {
  status: number;
  replayed: string | null;
  body: any;
}

/** One POST to /rpc with the caller's session and the key, answered with the replay header. */
async function send(
  who: Client | { apiKey: string } | null,
  key: string | null,
  body: unknown,
  path = "/rpc",
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (who && "token" in who) headers["authorization"] = `Bearer ${who.token}`;
  if (who && "apiKey" in who) headers["x-api-key"] = who.apiKey;
  if (key !== null) headers["idempotency-key"] = key;
  const res = await t.app.fetch(
    new Request(`http://test${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: text ? JSON.parse(text) : null };
}

const call = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: nextId++, method, params });
const deduct = (amount: number, reference = "order-1") =>
  call("creditservice.deduct", { amount, description: "an order", reference_type: "admin", reference_id: reference });
const debits = (userId: string) => count(t, "credit_transaction", "user_id = ? and tx_type = 'deduction'", [userId]);

describe("the same key and the same request", () => {
  test("runs once: the retry answers the first call's result, marked replayed, and nothing moves again", async () => {
    const first = await send(alice, "k-1", deduct(5));
    expect(first.body.result.sid).toEqual(expect.any(String));
    expect(first.replayed).toBeNull();
    const again = await send(alice, "k-1", deduct(5));
    expect(again.replayed).toBe("true");
    expect(again.body.result).toEqual(first.body.result);
    expect(again.body.id).toBe(first.body.id + 1); // the retry's own id
    expect(await debits(alice.userId)).toBe(1);
    expect((await walletOf(t, alice.userId))?.balance).toBe(45);
  });

  test("the same request written another way (key order, another id, the alias path) is the same request", async () => {
    await send(alice, "k-2", deduct(5));
    const reordered = {
      id: "retry",
      params: { reference_id: "order-1", reference_type: "admin", description: "an order", amount: 5 },
      method: "creditservice.deduct",
      jsonrpc: "2.0",
    };
    const again = await send(alice, "k-2", reordered);
    expect(again.replayed).toBe("true");
    expect(again.body.id).toBe("retry");
    expect(await debits(alice.userId)).toBe(1);
  });

  test("a final refusal is kept: the retry is refused the same way even once it could pass", async () => {
    const refused = await send(alice, "k-3", deduct(80));
    expect(refused.body.error.data.variant).toBe("InsufficientFunds");
    await fund(admin, alice.userId, 100);
    const again = await send(alice, "k-3", deduct(80));
    expect(again.replayed).toBe("true");
    expect(again.body.error).toEqual(refused.body.error);
    expect(await debits(alice.userId)).toBe(0);
    // A new key is a new request.
    expect((await send(alice, "k-3b", deduct(80))).body.result).toBeDefined();
    expect(await debits(alice.userId)).toBe(1);
  });

  test("a refusal before the call ran (invalid params) is not kept: the corrected request runs", async () => {
    const bad = await send(alice, "k-4", call("creditservice.deduct", { amount: "five" }));
    expect(bad.body.error.code).toBe(-32602);
    expect(await count(t, "idempotency_key")).toBe(0);
  });

  test("a secret shown once (a new API key) is shown again to the retry, and kept sealed", async () => {
    const generate = () => call("apikeyservice.generate_personal", { name: "ci", password: PASSWORD });
    const first = await send(alice, "k-5", generate());
    const secret: string = first.body.result.api_key;
    expect(secret.length).toBeGreaterThan(20);
    const again = await send(alice, "k-5", generate());
    expect(again.body.result).toEqual(first.body.result);
    expect(await count(t, "api_key", "user_id = ?", [alice.userId])).toBe(1);
    const [row] = await sql<{ answer: string }>(t, `select answer from idempotency_key`);
    expect(row?.answer.startsWith("enc:")).toBe(true);
    expect(row?.answer).not.toContain(secret);
  });
});

describe("refusals of the key", () => {
  test("the same key with another request is refused and runs nothing", async () => {
    await send(alice, "k-6", deduct(5));
    const other = await send(alice, "k-6", deduct(6));
    expect(other.body.error).toMatchObject({
      code: -32005,
      data: { type: "RpcError", variant: "IdempotencyKeyReused", method: "creditservice.deduct" },
    });
    expect(await debits(alice.userId)).toBe(1);
  });

  test("keys are per caller: another user's call with the same key runs", async () => {
    const bob = await t.register("bob@example.org");
    await fund(admin, bob.userId, 50);
    await send(alice, "shared", deduct(5));
    const theirs = await send(bob, "shared", deduct(5));
    expect(theirs.replayed).toBeNull();
    expect(await debits(bob.userId)).toBe(1);
  });

  test("an agent key's write on /rpc runs once too (its tier policy still applies to each call)", async () => {
    const agent = { apiKey: (await generateKey(alice)).key };
    const first = await send(agent, "k-agent", deduct(2));
    expect(first.body.result).toBeDefined();
    const again = await send(agent, "k-agent", deduct(2));
    expect(again.body.result).toEqual(first.body.result);
    expect(again.replayed).toBe("true");
    expect(await debits(alice.userId)).toBe(1);
  });

  test("a malformed key or a batch with a key is an invalid request and nothing runs", async () => {
    for (const key of ["", "has space", "x".repeat(256), "caf\u00e9"]) {
      const r = await send(alice, key, deduct(5));
      expect(r.body.error.code, JSON.stringify(key)).toBe(-32600);
    }
    const batch = await send(alice, "k-7", [deduct(5), deduct(6, "order-2")]);
    expect(batch.body.error).toMatchObject({ code: -32600 });
    expect(batch.body.error.message).toMatch(/single request/);
    expect(await debits(alice.userId)).toBe(0);
    // 255 visible characters are fine.
    expect((await send(alice, "y".repeat(255), deduct(5))).body.result).toBeDefined();
  });

  test("a read with a key runs every time and keeps nothing", async () => {
    const read = () => call("creditservice.get_balance", {});
    expect((await send(alice, "k-8", read())).body.result).toBeDefined();
    expect((await send(alice, "k-8", read())).replayed).toBeNull();
    expect(await count(t, "idempotency_key")).toBe(0);
  });
});

describe("24 hours", () => {
  test("the key runs again after 24 hours, and the hourly sweep drops what expired", async () => {
    // A script key (sessions live an hour); its keys are its own, not its owner's sessions'.
    const script = { apiKey: (await generateKey(alice, { mcp_scope: null })).key };
    await send(script, "k-9", deduct(5));
    expect((await send(alice, "k-9", deduct(5))).replayed).toBeNull();
    t.clock.advance(24 * 3600 - 1);
    expect((await send(script, "k-9", deduct(5))).replayed).toBe("true");
    t.clock.advance(1);
    expect((await send(script, "k-9", deduct(5))).replayed).toBeNull();
    expect(await debits(alice.userId)).toBe(3);
    await send(script, "k-10", deduct(1));
    t.clock.advance(24 * 3600);
    await t.app.runJobs();
    expect(await count(t, "idempotency_key")).toBe(0);
  });
});

test("concurrent duplicates: one execution, one debit, every answer the same (or told to retry)", async () => {
  const tries = 12;
  const answers = await Promise.all(Array.from({ length: tries }, () => send(alice, "burst", deduct(7))));
  const results = answers.filter((a) => a.body.result);
  const inUse = answers.filter((a) => a.body.error?.data?.variant === "IdempotencyKeyInUse");
  expect(results.length + inUse.length).toBe(tries);
  expect(results.length).toBeGreaterThan(0);
  expect(new Set(results.map((a) => a.body.result.sid)).size).toBe(1);
  expect(results.filter((a) => a.replayed === null)).toHaveLength(1);
  expect(await debits(alice.userId)).toBe(1);
  expect((await walletOf(t, alice.userId))?.balance).toBe(43);
  if (usingPostgres) expect(inUse.length).toBe(0); // each waited for the first, well inside the lock timeout
});
