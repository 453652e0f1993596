import { afterAll, beforeAll, expect, test } from "vitest";
import type { App } from "../../src/app/create-app.ts";
import { PASSWORD, startLoggedApp } from "../support/app.ts";

// Issue 13, newcomer path: with the sandbox provider a message can be found in the log (recipient, subject, links).
let app: App;
let lines: string[];

beforeAll(async () => {
  ({ app, lines } = await startLoggedApp());
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

test("the sandbox logs each email it keeps: recipient, subject, where to read it, and its links without tokens", async () => {
  await rpc("authservice.register", { email: "newcomer@example.org", password: PASSWORD });
  await rpc("authservice.request_password_reset", { email: "newcomer@example.org" });
  const emails = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === "sandbox email");
  const reset = emails.find((e) => e.template === "password_reset");
  expect(reset).toMatchObject({ to: "newcomer@example.org", subject: "Reset your password", level: 30 });
  expect(reset.links).toEqual(["http://localhost:8080/reset-password?token=..."]);
  expect(reset).toMatchObject({ read: "adminservice.list_outbox", outboxId: expect.any(String) });
  // Neither the reset token nor the verification token is anywhere in the log (issue 29 item 2).
  expect(lines.filter((l) => /token=(?!\.\.\.)/.test(l))).toEqual([]);
});
