import { request as httpRequest, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type App, createApp } from "../../src/app/create-app.ts";
import { openrpcDocuments } from "../../src/app/openrpc.ts";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { startTestApp, TEST_ARGON2 } from "../support/app.ts";
import { testOrm } from "../support/database.ts";

// Issue 13, newcomer path: one base URL (PUBLIC_BASE_URL, else this server on PORT) for email links and the
// OpenRPC `servers`, never taken from the request.

describe("PUBLIC_BASE_URL", () => {
  test("defaults to http://localhost:<PORT>", () => {
    expect(loadConfig({}).publicBaseUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PORT: "9317" }).publicBaseUrl).toBe("http://localhost:9317");
  });

  test("when set it wins over PORT, without its trailing slashes", () => {
    const env = { PORT: "9317", PUBLIC_BASE_URL: "https://registry.example.org/api//" };
    expect(loadConfig(env).publicBaseUrl).toBe("https://registry.example.org/api");
  });

  test.each([
    "ftp://registry.example.org",
    "registry.example.org",
    "https://registry.example.org/?next=1",
    "https://registry.example.org/#top",
    "https://user:secret@registry.example.org",
  ])("%s stops the start naming the variable", (value) => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_BASE_URL: value })).toThrow(/PUBLIC_BASE_URL/);
  });

  test("email links start with it", async () => {
    const t = await startTestApp({ publicBaseUrl: "https://registry.example.org" });
    await t.register("ada@example.org");
    const admin = await t.admin();
    const [email] = (await admin.callOk("adminservice.list_outbox", { to_email: "ada@example.org" })).items;
    expect(email?.links).toEqual([expect.stringMatching(/^https:\/\/registry\.example\.org\/verify-email\?token=/)]);
    await t.close();
  });
});

describe("the served OpenRPC servers URL", () => {
  const A = "https://a.registry.example";
  const B = "http://localhost:9317";
  const apps: App[] = [];
  const servers: Server[] = [];

  const appWith = async (base: string) => {
    const config = loadConfig({ PUBLIC_BASE_URL: base }, { argon2: TEST_ARGON2, logLevel: "silent" });
    const app = await createApp(config, { orm: await testOrm() });
    apps.push(app);
    return app;
  };
  const serversOf = (doc: any) => doc.servers;
  const getDoc = async (app: App, path: string, headers: Record<string, string> = {}) =>
    (await app.fetch(new Request(`http://evil.example${path}`, { headers }))).json();
  const discover = async (app: App, path: string, headers: Record<string, string> = {}) => {
    const res = await app.fetch(
      new Request(`http://evil.example${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "rpc.discover" }),
      }),
    );
    return ((await res.json()) as any).result;
  };

  let a: App;
  let b: App;
  beforeAll(async () => {
    a = await appWith(A);
    b = await appWith(B);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const app of apps) await app.close();
  });

  test("two apps with different PUBLIC_BASE_URL each answer their own, in every document", async () => {
    for (const [app, base] of [
      [a, A],
      [b, B],
    ] as const) {
      expect(serversOf(await getDoc(app, "/api/v1/openrpc.json"))).toEqual([{ name: "rpc", url: `${base}/rpc` }]);
      expect(serversOf(await discover(app, "/rpc"))).toEqual([{ name: "rpc", url: `${base}/rpc` }]);
      for (const domain of ["identity", "company", "finance", "platform"]) {
        const url = `${base}/freezone/${domain}/rpc`;
        expect(serversOf(await getDoc(app, `/api/v1/freezone/${domain}/openrpc.json`))).toEqual([{ name: "rpc", url }]);
        expect(serversOf(await discover(app, `/freezone/${domain}/rpc`))).toEqual([{ name: "rpc", url }]);
      }
    }
  });

  test("a forged Host or X-Forwarded-Host header changes nothing", async () => {
    const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(serversOf(await getDoc(a, "/api/v1/openrpc.json", forged))[0].url).toBe(`${A}/rpc`);
    expect(serversOf(await discover(a, "/rpc", forged))[0].url).toBe(`${A}/rpc`);
    // On a real socket too, where the Host header really is what the client sent (both HTTP paths).
    const server = createHttpServer(a);
    servers.push(server);
    const port = await listen(server, 0, "127.0.0.1");
    const send = (method: string, path: string, body?: string) =>
      new Promise<any>((resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port, method, path, headers: { ...forged, "content-type": "application/json" } },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve(JSON.parse(text)));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    expect((await send("GET", "/api/v1/openrpc.json")).servers[0].url).toBe(`${A}/rpc`);
    const viaRpc = await send("POST", "/rpc", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "rpc.discover" }));
    expect(viaRpc.result.servers[0].url).toBe(`${A}/rpc`);
  });

  test("the documents are built once per base URL and shared by the apps that use it", async () => {
    expect(openrpcDocuments(A)).toBe(a.runtime.openrpc);
    expect(openrpcDocuments(B)).toBe(b.runtime.openrpc);
    expect(a.runtime.openrpc.get("all")).not.toBe(b.runtime.openrpc.get("all"));
    const again = await appWith(A);
    expect(again.runtime.openrpc).toBe(a.runtime.openrpc);
  });
});
