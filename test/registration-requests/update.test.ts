import { beforeEach, describe, expect, test } from "vitest";
import { resellerPayload } from "../../src/domain/registration-requests.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import {
  keyPair,
  type Links,
  links,
  newPartner,
  type Partner,
  requiredContract,
  signedSubmit,
  signHex,
} from "./support.ts";

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

/** The fields as they will stand after the update, signed by the partner. */
function signed(changes: Partial<{ client_email: string; client_name: string } & Links>) {
  const fields = {
    request_type: "resident" as const,
    client_email: "ada@example.org",
    client_name: "Ada Lovelace",
    kyc_session_id: null as string | null,
    payment_id: null as string | null,
    signed_contract_ids: [] as string[],
    ...changes,
  };
  return acme.sign(fields);
}

const update = (params: Record<string, unknown>) =>
  acme.rpc("registrationrequestservice.update_registration_request", { request_id: requestId, ...params });

describe("update_registration_request", () => {
  test("a signed update changes the given fields and keeps the others", async () => {
    const signature = signed({ ...linked, client_name: "Ada King" });
    const r = await update({ ...linked, client_name: " Ada King ", reseller_signature: signature });
    expect(r.result).toMatchObject({
      status: "pending",
      client_email: "ada@example.org",
      client_name: "Ada King",
      kyc_session_id: linked.kyc_session_id,
      payment_id: linked.payment_id,
      signed_contract_ids: linked.signed_contract_ids,
      reseller_signature: signature,
      updated_at: t.clock.now().toISOString(),
    });
    expect(await stored()).toMatchObject({ client_name: "Ada King", reseller_signature: signature });
  });

  test("after needs_info the update returns the request to pending and keeps the message readable", async () => {
    await admin.callOk("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: admin.email,
      message: "attach the KYC session",
    });
    const r = await update({ ...linked, reseller_signature: signed(linked) });
    expect(r.result).toMatchObject({ status: "pending", info_request_message: "attach the KYC session" });
  });

  test("a change without a signature, or with one over other content, is InvalidSignature and changes nothing", async () => {
    const before = await stored();
    const missing = await update({ client_name: "Ada King" });
    expect(missing.error).toMatchObject({
      code: -32006,
      data: { variant: "InvalidSignature", reason: "missing_signature" },
    });
    const stale = await update({ client_name: "Ada King", reseller_signature: before.reseller_signature });
    expect(stale.error).toMatchObject({ code: -32006, data: { variant: "InvalidSignature" } });
    const wrong = await update({ client_name: "Ada King", reseller_signature: signed({ client_name: "Someone" }) });
    expect(wrong.error).toMatchObject({ code: -32006, data: { variant: "InvalidSignature" } });
    expect(await stored()).toEqual(before);
  });

  test("a call that changes nothing is InvalidInput; a new signature alone re-signs the request", async () => {
    const before = await stored();
    const none = await update({});
    expect(none.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const same = await update({ client_name: "Ada Lovelace", reseller_signature: before.reseller_signature });
    expect(same.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    // Re-signing after the partner replaced its signing key: the new key signs the request as it is.
    const replacement = keyPair();
    await sql(t, `update "partner_configuration" set signing_public_key = ? where sid = ?`, [
      replacement.publicHex,
      acme.partnerId,
    ]);
    const signature = signHex(
      replacement.secret,
      resellerPayload({
        reseller_id: acme.partnerId,
        request_type: "resident",
        client_email: "ada@example.org",
        client_name: "Ada Lovelace",
        kyc_session_id: null,
        payment_id: null,
        signed_contract_ids: [],
      }),
    );
    const r = await update({ reseller_signature: signature });
    expect(r.result).toMatchObject({ status: "pending", reseller_signature: signature });
  });

  test("under review, approved or rejected requests are InvalidState and stay unchanged", async () => {
    for (const status of ["under_review", "approved", "rejected"]) {
      await sql(t, `update "registration_request" set status = ? where sid = ?`, [status, requestId]);
      const before = await stored();
      const r = await update({ client_name: "Ada King", reseller_signature: signed({ client_name: "Ada King" }) });
      expect(r.error).toMatchObject({
        code: -32005,
        data: { type: "RegistrationRequestError", variant: "InvalidState" },
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
        reseller_signature: "00",
      });
      expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    }
    const theirs = await links(t, other.walletUserId, []);
    const r = await update({
      payment_id: theirs.payment_id,
      reseller_signature: signed({ payment_id: theirs.payment_id }),
    });
    expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await stored()).payment_id).toBeNull();
  });

  test("moving to an email another open request of the partner uses is AlreadyExists", async () => {
    await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(acme, { client_email: "bob@example.org" }),
    );
    const r = await update({
      client_email: "BOB@example.org",
      reseller_signature: signed({ client_email: "bob@example.org" }),
    });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    expect((await stored()).client_email).toBe("ada@example.org");
  });
});
