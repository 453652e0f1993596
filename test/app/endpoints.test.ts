import { Writable } from "node:stream";
import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { PASSWORD, startTestApp, type TestApp, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { testOrm } from "../support/database.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (path: string) => t.app.fetch(new Request(`http://test${path}`));
const getJson = async (path: string): Promise<any> => (await get(path)).json();

describe("OpenRPC documents", () => {
  test("GET /api/v1/openrpc.json is a valid OpenRPC 1.3 document with named component schemas", async () => {
    expect((await get("/api/v1/openrpc.json")).status).toBe(200);
    const doc = await getJson("/api/v1/openrpc.json");
    expect(validateOpenRPCDocument(doc)).toBe(true);
    expect(doc.openrpc).toBe("1.3.2");
    expect(doc.info.version).toBe("2.0");
    const names = doc.methods.map((m: { name: string }) => m.name);
    expect(names).toContain("residentservice.set_anonymity");
    expect(names).toContain("digitalresident.get");
    const anonymity = doc.methods.find((m: { name: string }) => m.name === "residentservice.set_anonymity");
    expect(anonymity.result.schema).toEqual({ $ref: "#/components/schemas/ResidentResult" });
    expect(doc.components.schemas.ResidentResult.type).toBe("object");
    expect(JSON.stringify(doc)).not.toContain("password_hash");
  });

  test("the all document serves the records without CRUD, PaymentMethod, and login's AuthResult", async () => {
    const doc = await getJson("/api/v1/openrpc.json");
    for (const name of [
      "MfaRecoverySession",
      "ExternalCompanyRegistration",
      "ExternalIdState",
      "Proxy",
      "CoopEvent",
      "InvoicePaymentDefault",
      "PaymentMethod",
      "AuthResult",
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    const login = doc.methods.find((m: { name: string }) => m.name === "authservice.login");
    expect(login.result.schema).toEqual({ $ref: "#/components/schemas/AuthResult" });
  });

  test.each(["identity", "company", "finance", "platform"])(
    "the %s domain document is valid and holds only that domain",
    async (domain) => {
      const doc = await getJson(`/api/v1/freezone/${domain}/openrpc.json`);
      expect(validateOpenRPCDocument(doc)).toBe(true);
      expect(doc.methods.length).toBeGreaterThan(10);
      const viaDiscover = await t.post(`/freezone/${domain}/rpc`, { jsonrpc: "2.0", id: 1, method: "rpc.discover" });
      expect(viaDiscover.result.methods.map((m: { name: string }) => m.name)).toEqual(
        doc.methods.map((m: { name: string }) => m.name),
      );
    },
  );

  test("service versions follow the seed: 2.0.0 for DocumentService and KeypairService, 1.0.0 otherwise", async () => {
    const doc = await getJson("/api/v1/openrpc.json");
    const versions = Object.fromEntries(
      doc["x-services"].map((s: { service: string; version: string }) => [s.service, s.version]),
    );
    expect(versions["DocumentService"]).toBe("2.0.0");
    expect(versions["KeypairService"]).toBe("2.0.0");
    expect(versions["ResidentService"]).toBe("1.0.0");
  });

  test("the resident service alias is listed once, with the alias noted, and callable", async () => {
    const doc = await getJson("/api/v1/openrpc.json");
    const names = doc.methods.map((m: { name: string }) => m.name);
    expect(names.filter((n: string) => n.startsWith("digitalresidentservice."))).toEqual([]);
    expect(doc.methods.find((m: { name: string }) => m.name === "residentservice.get")["x-alias"]).toEqual([
      "digitalresidentservice.get",
    ]);
    const r = await t.rpc("digitalresidentservice.get", { resident_id: "FZ-2026-RA000001" });
    expect(r.error?.code).not.toBe(-32601);
  });

  test("an unknown domain is 404", async () => {
    expect((await get("/api/v1/freezone/nowhere/openrpc.json")).status).toBe(404);
  });
});

describe("health", () => {
  test("GET /health reports the database", async () => {
    const res = await get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "up" });
  });

  test("GET /ready takes a transaction id and writes nothing (silent and busy databases: test/reliability)", async () => {
    const res = await get("/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready" });
  });
});

describe("structured logs", () => {
  test("each call logs request id, method, duration and outcome, and never passwords or tokens", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await createApp(testConfig(new TestClock()), {
      orm: await testOrm(),
      log: pino({ level: "info" }, sink),
    });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.fetch(
        new Request("http://test/rpc", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      );
    const reg = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "authservice.register",
      params: { email: "log@example.org", password: PASSWORD },
    });
    const token = ((await reg.json()) as { result: { access_token: string } }).result.access_token;
    await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "authservice.login",
        params: { email: "log@example.org", password: "wrong passphrase 1" },
      },
      { "x-request-id": "req-42" },
    );
    await post({ jsonrpc: "2.0", id: 3, method: "authservice.me", params: {} }, { authorization: `Bearer ${token}` });
    await post([
      { jsonrpc: "2.0", id: 4, method: "rpc.discover" },
      { jsonrpc: "2.0", id: 5, method: "no.such" },
      { jsonrpc: "2.0", id: 6, method: "pricingservice.get_all_pricing", params: {} },
    ]);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.filter((e) => e.method === "batch")).toEqual([
      expect.objectContaining({ calls: 3, failed: 1, outcome: "error", ms: expect.any(Number) }),
    ]);
    const login = entries.find((e) => e.method === "authservice.login");
    expect(login).toMatchObject({ requestId: "req-42", outcome: "error", code: -32001 });
    expect(login.ms).toEqual(expect.any(Number));
    expect(entries.find((e) => e.method === "authservice.register")).toMatchObject({ outcome: "ok" });
    await app.close();
    const all = lines.join("\n");
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain("wrong passphrase 1");
    expect(all).not.toContain(token);
  });
});

describe("errors carry no internals", () => {
  test("a database failure answers -32603 Internal error with no SQL, stack or driver text", async () => {
    const alice = await t.register("internal@example.org");
    const conn = (await testOrm()).em.fork().getConnection();
    await conn.execute(`alter table "digital_resident" rename to "digital_resident_away"`);
    try {
      const r = await alice.rpc("digitalresident.get", { sid: "0190c5a0-0000-7000-8000-000000000000" });
      expect(r.error).toEqual({ code: -32603, message: "Internal error" });
      expect(JSON.stringify(r.body)).not.toMatch(/select|relation|digital_resident|stack/i);
    } finally {
      await conn.execute(`alter table "digital_resident_away" rename to "digital_resident"`);
    }
  });

  test("find with a value of the wrong type for its field is -32602", async () => {
    const alice = await t.register("types@example.org");
    const r = await alice.rpc("digitalresident.find", {
      query: JSON.stringify({ external_id_counter: "not a number" }),
    });
    expect(r.error?.code).toBe(-32602);
  });
});
