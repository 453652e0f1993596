import { createHash } from "node:crypto";
import { beforeEach, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { lastEmail } from "./support.ts";

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});

const verified = async (userId: string) =>
  (await sql(t, `select email_verified from "user" where sid = ?`, [userId]))[0]?.email_verified;

test("registering sends a verification email whose token verifies the address once", async () => {
  const ada = await t.register("ada@example.org");
  const mail = await lastEmail(t, "ada@example.org", "verify_email");
  expect(mail?.subject).toBe("Confirm your email address");
  const r = await t.rpc("authservice.verify_email", { token: mail?.code });
  expect(r.result).toEqual({
    status: "verified",
    email: "ada@example.org",
    email_verified: true,
    verified_at: t.clock.now().toISOString(),
  });
  expect((await ada.rpc("authservice.me", {})).result.email_verified).toBe(true);
  const again = await t.rpc("authservice.verify_email", { token: mail?.code });
  expect(again.error).toMatchObject({ code: -32005, data: { type: "EmailError", variant: "AlreadyUsed" } });
});

test("verification tokens are stored only as SHA-256", async () => {
  await t.register("ada@example.org");
  const mail = await lastEmail(t, "ada@example.org", "verify_email");
  const rows = await sql(t, `select token_hash from "email_verification_token"`);
  expect(rows.map((r) => r.token_hash)).toEqual([
    createHash("sha256")
      .update(mail?.code ?? "")
      .digest("hex"),
  ]);
});

test("an expired verification token is Expired and leaves the email unverified", async () => {
  const ada = await t.register("ada@example.org");
  const mail = await lastEmail(t, "ada@example.org", "verify_email");
  t.clock.advance(24 * 3600);
  const r = await t.rpc("authservice.verify_email", { token: mail?.code });
  expect(r.error).toMatchObject({ code: -32005, data: { type: "EmailError", variant: "Expired" } });
  expect(await verified(ada.userId)).toBe(false);
});

test("an unknown verification token is NotFound", async () => {
  const r = await t.rpc("authservice.verify_email", { token: "fzv_nope" });
  expect(r.error).toMatchObject({ code: -32003, data: { type: "EmailError", variant: "NotFound" } });
});

test("send_verification_email answers the same for unknown, verified and unverified addresses", async () => {
  await t.register("ada@example.org");
  await t.register("bob@example.org");
  const bobMail = await lastEmail(t, "bob@example.org", "verify_email");
  await t.rpc("authservice.verify_email", { token: bobMail?.code });
  const answers = [];
  for (const email of ["ada@example.org", "bob@example.org", "nobody@example.org"]) {
    const r = await t.rpc("authservice.send_verification_email", { email });
    answers.push({ ...r.result, email: null });
  }
  expect(answers[0]).toEqual({ status: "sent", email: null, email_verified: null, verified_at: null });
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  expect(await count(t, "email_outbox", "to_email = 'ada@example.org'")).toBe(2);
  expect(await count(t, "email_outbox", "to_email = 'bob@example.org'")).toBe(1);
  expect(await count(t, "email_outbox", "to_email = 'nobody@example.org'")).toBe(0);
});

test("send_verification_email refuses a malformed address", async () => {
  const r = await t.rpc("authservice.send_verification_email", { email: "ada" });
  expect(r.error).toMatchObject({ code: -32006, data: { type: "EmailError", variant: "InvalidInput" } });
});

test("send_verification_email reports a provider failure and stores no token", async () => {
  await t.register("ada@mail.invalid");
  expect(await count(t, "email_verification_token")).toBe(0);
  const r = await t.rpc("authservice.send_verification_email", { email: "ada@mail.invalid" });
  expect(r.error).toMatchObject({ code: -32009, data: { type: "EmailError", variant: "ProviderUnavailable" } });
  expect(await count(t, "email_verification_token")).toBe(0);
});
