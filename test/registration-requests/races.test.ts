import { beforeEach, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import {
  adminWithKey,
  approvalSignature,
  type KeyPair,
  links,
  newPartner,
  oldResidentId,
  type Partner,
  requiredContract,
  signedSubmit,
} from "./support.ts";

/*
 * Concurrent calls (truly parallel on PostgreSQL, serialised on PGlite's one connection): the conditional moves,
 * the row locks and the partial unique indexes let exactly one of them through.
 */

let t: TestApp;
let admin: Client;
let adminKeys: KeyPair;
let acme: Partner;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  adminKeys = await adminWithKey(t, admin);
  acme = await newPartner(t, admin);
});

const variants = (replies: { error?: { data?: { variant?: string } } | undefined }[]) =>
  replies.map((r) => r.error?.data?.variant ?? "ok").sort();

test("five concurrent submissions of one client make one open request", async () => {
  const params = signedSubmit(acme, { client_email: "ada@example.org" });
  const replies = await Promise.all(
    Array.from({ length: 5 }, () => acme.rpc("registrationrequestservice.submit_registration_request", params)),
  );
  expect(variants(replies)).toEqual(["AlreadyExists", "AlreadyExists", "AlreadyExists", "AlreadyExists", "ok"]);
  expect(await count(t, "registration_request")).toBe(1);
});

test("five concurrent approvals of one request create one resident", async () => {
  const linked = await links(t, acme.walletUserId, [await requiredContract(t)]);
  const r = await acme.callOk(
    "registrationrequestservice.submit_registration_request",
    signedSubmit(acme, { client_email: "ada@example.org", ...linked }),
  );
  const params = {
    request_id: r.request_id,
    admin_email: admin.email,
    admin_signature: await approvalSignature(t, adminKeys, r.request_id, admin.email),
  };
  const replies = await Promise.all(
    Array.from({ length: 5 }, () => admin.rpc("adminregistrationservice.approve_registration", params)),
  );
  expect(variants(replies)).toEqual(["InvalidState", "InvalidState", "InvalidState", "InvalidState", "ok"]);
  expect(await count(t, "digital_resident", "partner_id = ?", [acme.partnerId])).toBe(1);
  expect(await count(t, "admin_action", "action = 'approve_registration_request'")).toBe(1);
});

test("five concurrent grants of one proxy make one", async () => {
  const principal = oldResidentId();
  const target = oldResidentId();
  const ada = await t.register("ada@example.org");
  await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(ada.userId, { resident_id: principal }));
  await insertRow(t.app.runtime.orm, "DigitalResident", residentValues("", { resident_id: target, user_id: null }));
  const params = { principal_dr_id: principal, target_dr_id: target, role: "proxy" };
  const replies = await Promise.all(Array.from({ length: 5 }, () => admin.rpc("proxyservice.create_proxy", params)));
  expect(variants(replies)).toEqual(["AlreadyExists", "AlreadyExists", "AlreadyExists", "AlreadyExists", "ok"]);
  expect(await count(t, "proxy")).toBe(1);
});
