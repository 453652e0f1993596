import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONSOLE_CSP, mountConsole } from "../../src/app/console.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { ensureConsoleBuilt } from "./support.ts";

let t: TestApp;
const get = (path: string) => t.app.fetch(new Request(`http://test${path}`));

beforeAll(async () => {
  await ensureConsoleBuilt();
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("the app serves the built console at /console", () => {
  test("the server's address redirects to the console; /favicon.ico is the site icon", async () => {
    const root = await get("/");
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    const icon = await get("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const index = await (await get("/console/")).text();
    expect(index).toContain('<link rel="icon" href="/favicon.ico" type="image/svg+xml"');
  });

  test("/console redirects to /console/, which is index.html with the CSP and no-cache", async () => {
    const bare = await get("/console");
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/console/");
    const index = await get("/console/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(index.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await index.text();
    expect(html).toContain("<title>Freezone console</title>");
    // No inline script: every script tag loads a file from /console/assets/.
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, body] of scripts) {
      expect(body).toBe("");
      expect(tag).toMatch(/src="\/console\/assets\/[^"]+\.js"/);
    }
  });

  test("hashed assets: their content type and a year of immutable caching", async () => {
    const html = await (await get("/console/")).text();
    const js = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)?.[1];
    const css = html.match(/href="(\/console\/assets\/[^"]+\.css)"/)?.[1];
    expect(js).toBeDefined();
    expect(css).toBeDefined();
    const script = await get(js!);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const style = await get(css!);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(style.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
  });

  test("a deep link answers index.html; a missing asset and an escaping path answer 404", async () => {
    const deep = await get("/console/keys/anything");
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain("<title>Freezone console</title>");
    expect((await get("/console/assets/index-gone.js")).status).toBe(404);
    expect((await get("/console/%2e%2e/%2e%2e/package.json")).status).toBe(404);
    expect((await get("/console/..%2f..%2fpackage.json")).status).toBe(404);
  });
});

describe("without a build", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "fz-console-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("/console/ answers 503 with a page saying to run npm run build", async () => {
    const app = new Hono();
    mountConsole(app, join(dir, "none"));
    const res = await app.fetch(new Request("http://test/console/"));
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toContain("npm run build");
  });

  test("a file outside assets/ is served as is, html files only as the app's index", async () => {
    mkdirSync(join(dir, "site", "assets"), { recursive: true });
    writeFileSync(join(dir, "site", "index.html"), "<!doctype html><title>x</title>");
    writeFileSync(join(dir, "site", "robots.txt"), "User-agent: *\n");
    const app = new Hono();
    mountConsole(app, join(dir, "site"));
    const robots = await app.fetch(new Request("http://test/console/robots.txt"));
    expect(robots.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(robots.headers.get("cache-control")).toBe("no-cache");
    expect(await robots.text()).toBe("User-agent: *\n");
  });
});
