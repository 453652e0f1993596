import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("JSON-RPC 2.0 envelope", () => {
  test("malformed JSON is a parse error with a null id", async () => {
    const r = await t.post("/rpc", "{not json");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  });

  test("a wrong jsonrpc version is an invalid request that echoes the id", async () => {
    const r = await t.post("/rpc", { jsonrpc: "1.0", id: 7, method: "rpc.discover" });
    expect(r.body.id).toBe(7);
    expect(r.error?.code).toBe(-32600);
  });

  test("a missing method is an invalid request", async () => {
    const r = await t.post("/rpc", { jsonrpc: "2.0", id: "a" });
    expect(r.body).toMatchObject({ id: "a", error: { code: -32600 } });
  });

  test("an unknown method is -32601", async () => {
    const r = await t.rpc("nosuchservice.nothing");
    expect(r.error?.code).toBe(-32601);
  });

  test("string, number and null ids are echoed", async () => {
    for (const id of ["abc", 42, null]) {
      const r = await t.post("/rpc", { jsonrpc: "2.0", id, method: "rpc.discover" });
      expect(r.body.id).toBe(id);
      expect(r.result.openrpc).toBe("1.3.2");
    }
  });

  test("an empty batch is an invalid request", async () => {
    const r = await t.post("/rpc", []);
    expect(r.body).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test("a batch answers each call in order and leaves notifications out", async () => {
    const r = await t.post("/rpc", [
      { jsonrpc: "2.0", id: 1, method: "rpc.discover" },
      { jsonrpc: "2.0", method: "rpc.discover" },
      { jsonrpc: "2.0", id: 2, method: "no.such" },
      { foo: "bar" },
    ]);
    expect(r.body).toHaveLength(3);
    expect(r.body[0].id).toBe(1);
    expect(r.body[1]).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(r.body[2]).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test("a request of notifications only gets 204 and no body", async () => {
    const r = await t.post("/rpc", { jsonrpc: "2.0", method: "rpc.discover" });
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
  });

  test("params as an array are refused: params are by name", async () => {
    const r = await t.rpc("authservice.login", ["a@example.org", "pw"]);
    expect(r.error?.code).toBe(-32602);
  });

  test("unknown params are refused with the ajv errors in data", async () => {
    const r = await t.rpc("authservice.login", { email: "a@example.org", password: "x", extra: 1 });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain('unknown param "extra"');
    expect(r.error?.data.errors[0].params.additionalProperty).toBe("extra");
  });

  test("a param of the wrong type is refused", async () => {
    const r = await t.rpc("authservice.login", { email: 12, password: "x" });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data.errors[0].path).toBe("/email");
  });

  test("a body over 1 MiB is refused with 413", async () => {
    const r = await t.app.fetch(
      new Request("http://test/rpc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "x".repeat(1024 * 1024 + 1),
      }),
    );
    expect(r.status).toBe(413);
  });

  test("a wrong content type is refused with 415 and other verbs with 405", async () => {
    const wrongType = await t.app.fetch(
      new Request("http://test/rpc", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
    );
    expect(wrongType.status).toBe(415);
    const get = await t.app.fetch(new Request("http://test/rpc"));
    expect(get.status).toBe(405);
  });

  test("JSON nested over 64 levels is an invalid request", async () => {
    const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
    const r = await t.post("/rpc", `{"jsonrpc":"2.0","id":1,"method":"rpc.discover","params":{"a":${deep}}}`);
    expect(r.error?.code).toBe(-32600);
  });

  test("a string param over 64 KiB is refused with -32602 (API.md request limits)", async () => {
    const r = await t.rpc("contractservice.get_required_contract", {
      entity_type: "resident",
      category_str: "x".repeat(64 * 1024 + 1),
    });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data.errors[0].params.limit).toBe(65536);
    const ok = await t.rpc("contractservice.get_required_contract", {
      entity_type: "resident",
      category_str: "x".repeat(100),
    });
    expect(ok.error?.code).not.toBe(-32602);
  });

  test("an array param over 1,000 items is refused with -32602", async () => {
    const alice = await t.register("arrays@example.org");
    const holder = { name: "A", email: "a@example.org", resident_id: null, units: 1, role: null };
    const r = await alice.rpc("entitydraftservice.create_draft", {
      entity_type: "company",
      entity_name: "Big Co",
      company_type: "global_fzc",
      template_data: "{}",
      shareholders: Array.from({ length: 1001 }, () => holder),
    });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.data.errors[0].params.limit).toBe(1000);
  });

  test("a method called on another domain's endpoint is -32601", async () => {
    const r = await t.post("/freezone/finance/rpc", { jsonrpc: "2.0", id: 1, method: "authservice.login", params: {} });
    expect(r.error?.code).toBe(-32601);
    const ok = await t.post("/freezone/identity/rpc", {
      jsonrpc: "2.0",
      id: 1,
      method: "authservice.login",
      params: { email: "x@example.org", password: "wrong password" },
    });
    expect(ok.error?.code).toBe(-32001);
  });

  test("a not-implemented operation answers -32004 with the method name", async () => {
    const alice = await t.register("stub@example.org");
    const r = await alice.rpc("taxservice.get_deadlines", { company_id: "FZ-2026-Y000001" });
    expect([-32004, -32003]).toContain(r.error?.code);
  });
});
