import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { type Links, links, newPartner, type Partner, requiredContract, signedSubmit } from "./support.ts";

let t: TestApp;
let admin: Client;
let acme: Partner;
let linked: Links;
let requestId: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  acme = await newPartner(t, admin);
  linked = await links(t, acme.walletUserId, [await requiredContract(t)]);
  const r = await acme.callOk(
    "registrationrequestservice.submit_registration_request",
    signedSubmit(acme, { client_email: "ada@example.org" }),
  );
  requestId = r.request_id;
  t.clock.advance(60);
});

const stored = async () => (await sql(t, `select * from "registration_request" where sid = ?`, [requestId]))[0];
const update = (params: Record<string, unknown>) =>
  acme.rpc("registrationrequestservice.update_registration_request", { request_id: requestId, ...params });
const updateAudit = () =>
  sql(
    t,
    `select target_ref, target_type, allowed, context from "user_audit_log" where action = 'other' and target_type = 'registration_request' order by sid`,
  );

describe("update_registration_request", () => {
  test("changes the given fields, keeps the others and the submission's signature, and is audited", async () => {
    const before = await stored();
    const r = await update({ ...linked, client_name: " Ada King " });
    expect(r.result).toMatchObject({
      status: "pending",
      client_email: "ada@example.org",
      client_name: "Ada King",
      kyc_session_id: linked.kyc_session_id,
      payment_id: linked.payment_id,
      signed_contract_ids: linked.signed_contract_ids,
      reseller_signature: before.reseller_signature,
      updated_at: t.clock.now().toISOString(),
    });
    // The signature attests the submission: its payload is kept as it was signed.
    expect(await stored()).toMatchObject({
      client_name: "Ada King",
      reseller_signature: before.reseller_signature,
      signed_payload: before.signed_payload,
    });
    expect(JSON.parse(before.signed_payload)[4]).toBe("Ada Lovelace");
    const audit = await updateAudit();
    expect(audit).toEqual([
      expect.objectContaining({ target_ref: requestId, target_type: "registration_request", allowed: true }),
    ]);
    expect(JSON.parse(audit[0].context)).toMatchObject({
      method: "registrationrequestservice.update_registration_request",
      partner_id: acme.partnerId,
    });
  });

  test("after needs_info the update returns the request to pending and keeps the message readable", async () => {
    await admin.callOk("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: admin.email,
      message: "attach the KYC session",
    });
    const r = await update({ kyc_session_id: linked.kyc_session_id });
    expect(r.result).toMatchObject({ status: "pending", info_request_message: "attach the KYC session" });
  });

  test("a call that changes nothing is InvalidInput, audited allowed false", async () => {
    const before = await stored();
    const none = await update({});
    expect(none.error).toMatchObject({
      code: -32006,
      data: { type: "RegistrationRequestError", variant: "InvalidInput" },
    });
    const same = await update({ client_name: " Ada Lovelace", client_email: "ADA@example.org" });
    expect(same.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const bad = await update({ client_email: "nope" });
    expect(bad.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "client_email" } });
    expect(await stored()).toEqual(before);
    expect((await updateAudit()).map((a) => a.allowed)).toEqual([false, false, false]);
  });

  test("under review, approved or rejected requests are InvalidState and stay unchanged", async () => {
    for (const status of ["under_review", "approved", "rejected"]) {
      await sql(t, `update "registration_request" set status = ? where sid = ?`, [status, requestId]);
      const before = await stored();
      const r = await update({ client_name: "Ada King" });
      expect(r.error).toMatchObject({
        code: -32005,
        data: { type: "RegistrationRequestError", variant: "InvalidState", status },
      });
      expect(await stored()).toEqual(before);
    }
  });

  test("another partner's request or an unknown id is NotFound; foreign links are NotFound", async () => {
    const other = await newPartner(t, admin, { name: "Other" });
    for (const id of [requestId, "nope"]) {
      const r = await other.rpc("registrationrequestservice.update_registration_request", {
        request_id: id,
        client_name: "X",
      });
      expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    }
    const theirs = await links(t, other.walletUserId, []);
    const r = await update({ payment_id: theirs.payment_id });
    expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await stored()).payment_id).toBeNull();
  });

  test("moving to an email another open request of the partner uses is AlreadyExists", async () => {
    await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(acme, { client_email: "bob@example.org" }),
    );
    const r = await update({ client_email: "BOB@example.org" });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    expect((await stored()).client_email).toBe("ada@example.org");
  });
});
