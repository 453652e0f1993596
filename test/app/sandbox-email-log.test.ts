import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type App, createApp } from "../../src/app/create-app.ts";
import { createLogger } from "../../src/app/logging.ts";
import { PASSWORD, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { resetDatabase } from "../support/database.ts";

// Issue 13, newcomer path: with the sandbox provider a message can be found in the log (recipient, subject, links).
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  const orm = await resetDatabase();
  const config = testConfig(new TestClock(), { logLevel: "info" });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await createApp(config, { orm, log: createLogger(config, sink) });
});
afterAll(() => app.close());

const rpc = (method: string, params: unknown) =>
  app.fetch(
    new Request("http://test/rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );

test("the sandbox logs each email it keeps: recipient, subject and the links in it", async () => {
  await rpc("authservice.register", { email: "newcomer@example.org", password: PASSWORD });
  await rpc("authservice.request_password_reset", { email: "newcomer@example.org" });
  const emails = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === "sandbox email");
  const reset = emails.find((e) => e.template === "password_reset");
  expect(reset).toMatchObject({ to: "newcomer@example.org", subject: "Reset your password", level: 30 });
  expect(reset.links).toEqual([expect.stringMatching(/\/reset-password\?token=/)]);
});
