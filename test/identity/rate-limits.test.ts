import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { type App, createApp } from "../../src/app/create-app.ts";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { PASSWORD, startTestApp, type TestApp, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { workerSchema } from "../support/database.ts";
import { count, sql } from "../support/helpers.ts";
import { limits } from "./support.ts";

let t: TestApp;
const WRONG = "not the password 99";
const from = (ip: string) => ({ "x-forwarded-for": ip });

describe("per account", () => {
  beforeEach(async () => {
    t = await startTestApp();
    await t.register("ada@example.org");
  });
  const login = (password: string) => t.rpc("authservice.login", { email: "ada@example.org", password });

  test("after 10 failed logins in 15 minutes even the right password is RateLimited until the window passes", async () => {
    for (let i = 0; i < 10; i++) expect((await login(WRONG)).error?.data.variant).toBe("InvalidCredentials");
    const r = await login(PASSWORD);
    expect(r.error).toMatchObject({ code: -32007, data: { type: "AuthError", variant: "RateLimited" } });
    expect(r.error?.data.retry_after_s).toBe(15 * 60);
    t.clock.advance(15 * 60);
    expect((await login(PASSWORD)).result.user_id).toBeDefined();
  });

  test("successful logins do not count toward the limit", async () => {
    for (let i = 0; i < 9; i++) await login(WRONG);
    expect((await login(PASSWORD)).result).toBeDefined();
    expect((await login(WRONG)).error?.data.variant).toBe("InvalidCredentials");
    expect((await login(WRONG)).error?.data.variant).toBe("RateLimited");
  });

  test("an unknown email is limited the same way, so the limit tells nothing", async () => {
    const unknown = () => t.rpc("authservice.login", { email: "nobody@example.org", password: WRONG });
    for (let i = 0; i < 10; i++) await unknown();
    expect((await unknown()).error?.data.variant).toBe("RateLimited");
  });

  test("concurrent guesses cannot overshoot: of 20 at once exactly 10 are judged", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(WRONG)));
    const variants = answers.map((a) => a.error?.data.variant);
    expect(variants.filter((v) => v === "InvalidCredentials")).toHaveLength(10);
    expect(variants.filter((v) => v === "RateLimited")).toHaveLength(10);
  });

  test("a password reset lifts the login lockout", async () => {
    for (let i = 0; i < 10; i++) await login(WRONG);
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const mail = (await sql(t, `select body_text from "email_outbox" where template = 'password_reset'`))[0];
    const token = /enter this code: (\S+)/.exec(mail?.body_text)?.[1];
    await t.rpc("authservice.reset_password", { token, new_password: "a brand new passphrase 77" });
    expect((await login("a brand new passphrase 77")).result).toBeDefined();
  });

  test("wrong re-entered passwords are limited per account too", async () => {
    const ada = { rpc: (m: string, p: unknown) => t.rpc(m, p, { authorization: `Bearer ${token}` }) };
    const token = (await login(PASSWORD)).result.access_token;
    for (let i = 0; i < 10; i++) {
      const r = await ada.rpc("apikeyservice.generate_personal", { name: "k", password: WRONG });
      expect(r.error?.data.variant).toBe("WrongPassword");
    }
    const r = await ada.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32007, data: { type: "ApiKeyError", variant: "RateLimited" } });
    expect(await count(t, "api_key")).toBe(0);
  });

  test("reset and verification emails are limited per address, whether or not it has an account", async () => {
    for (const email of ["ada@example.org", "nobody@example.org"]) {
      for (let i = 0; i < 5; i++) await t.rpc("authservice.request_password_reset", { email });
      const r = await t.rpc("authservice.request_password_reset", { email });
      expect(r.error).toMatchObject({ code: -32007, data: { type: "AuthError", variant: "RateLimited" } });
    }
    for (let i = 0; i < 5; i++) await t.rpc("authservice.send_verification_email", { email: "ada@example.org" });
    const r = await t.rpc("authservice.send_verification_email", { email: "ada@example.org" });
    expect(r.error).toMatchObject({ code: -32007, data: { type: "EmailError", variant: "RateLimited" } });
  });
});

describe("per client address", () => {
  beforeEach(async () => {
    t = await startTestApp({ trustProxy: true });
  });

  test("60 attempts a minute across the anonymous auth operations, then RateLimited; other addresses unaffected", async () => {
    // Distinct accounts each time, so only the address limit can trigger.
    const calls = [
      (i: number) => t.rpc("authservice.login", { email: `x${i}@example.org`, password: WRONG }, from("203.0.113.7")),
      (i: number) => t.rpc("authservice.request_password_reset", { email: `x${i}@example.org` }, from("203.0.113.7")),
      (_: number) => t.rpc("authservice.refresh_token", { token: "fzr_x" }, from("203.0.113.7")),
      (i: number) =>
        t.rpc(
          "apikeyservice.generate",
          { client_id: `c${i}`, client_secret: "b", access_password: "c" },
          from("203.0.113.7"),
        ),
    ];
    for (let i = 0; i < 60; i++) {
      const r = await calls[i % calls.length]?.(i);
      expect(r?.error?.code).not.toBe(-32007);
    }
    const refused = await t.rpc(
      "authservice.register",
      { email: "new@example.org", password: PASSWORD },
      from("203.0.113.7"),
    );
    expect(refused.error).toMatchObject({ code: -32007, data: { type: "RegistrationError", variant: "RateLimited" } });
    expect(refused.error?.data.retry_after_s).toBe(60);
    expect(await count(t, "user")).toBe(0);
    const other = await t.rpc(
      "authservice.register",
      { email: "new@example.org", password: PASSWORD },
      from("198.51.100.2"),
    );
    expect(other.result.user_id).toBeDefined();
    t.clock.advance(60);
    const later = await t.rpc(
      "authservice.login",
      { email: "new@example.org", password: PASSWORD },
      from("203.0.113.7"),
    );
    expect(later.result.user_id).toBe(other.result.user_id);
  });

  test("without TRUST_PROXY a forged X-Forwarded-For does not escape the limit", async () => {
    t = await startTestApp({ rateLimits: limits({ perAddressPerMinute: 2 }) });
    for (let i = 0; i < 2; i++)
      await t.rpc("authservice.login", { email: "x@example.org", password: WRONG }, from(`10.0.0.${i}`));
    const r = await t.rpc("authservice.login", { email: "x@example.org", password: WRONG }, from("10.0.0.99"));
    expect(r.error?.data.variant).toBe("RateLimited");
  });

  test("the counters live in the database (RateLimitCounter rows)", async () => {
    await t.rpc("authservice.login", { email: "x@example.org", password: WRONG }, from("203.0.113.9"));
    const buckets = (await sql(t, `select bucket, count from "rate_limit_counter" order by bucket`)).map((r) => [
      r.bucket,
      Number(r.count),
    ]);
    expect(buckets).toEqual([
      ["acct:login:x@example.org", 1],
      ["addr:auth:203.0.113.9", 1],
    ]);
  });
});

const url = process.env["DATABASE_URL"];

/** Two app instances with their own ORMs on one PostgreSQL schema share the counters. */
describe.skipIf(!url)("across instances on one PostgreSQL (needs DATABASE_URL)", () => {
  const apps: { app: App; orm: MikroORM }[] = [];
  beforeAll(async () => {
    const schema = `${workerSchema()}_limits`;
    const clock = new TestClock();
    for (let i = 0; i < 2; i++) {
      const orm = await openOrm({ entities: ENTITIES, databaseUrl: url, schema });
      if (i === 0) {
        await migrate(orm);
        await truncateAll(orm);
      }
      apps.push({ app: await createApp(testConfig(clock), { orm }), orm });
    }
  });
  afterAll(async () => {
    for (const a of apps) {
      await a.app.close();
      await closeOrm(a.orm);
    }
  });

  const call = async (app: App, method: string, params: unknown) => {
    const res = await app.fetch(
      new Request("http://test/rpc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }),
    );
    return (await res.json()) as { result?: any; error?: any };
  };

  test("failed logins on two instances add up to one limit", async () => {
    const [one, two] = apps as [(typeof apps)[0], (typeof apps)[0]];
    await call(one.app, "authservice.register", { email: "pair@example.org", password: PASSWORD });
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call((i % 2 === 0 ? one : two).app, "authservice.login", { email: "pair@example.org", password: WRONG }),
      ),
    );
    const variants = attempts.map((a) => a.error?.data?.variant);
    expect(variants.filter((v) => v === "InvalidCredentials")).toHaveLength(10);
    expect(variants.filter((v) => v === "RateLimited")).toHaveLength(2);
    const right = await call(two.app, "authservice.login", { email: "pair@example.org", password: PASSWORD });
    expect(right.error?.data?.variant).toBe("RateLimited");
  });
});
