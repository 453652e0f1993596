import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, generateKey, sql } from "../support/helpers.ts";
import { type Links, links, newPartner, type Partner, requiredContract, signedSubmit } from "./support.ts";

let t: TestApp;
let admin: Client;
let acme: Partner;
let linked: Links;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  acme = await newPartner(t, admin);
  linked = await links(t, acme.walletUserId, [await requiredContract(t)]);
});

// The submission's rows only: registering the partners' signing keys (set-up, through the API) is audited too.
const auditRows = () =>
  sql(
    t,
    `select subject_id, action, target_ref, target_type, allowed, context from "user_audit_log"
     where action like 'partner_registration_request%' order by sid`,
  );

const submit = (params = signedSubmit(acme, { client_email: "ada@example.org", ...linked })) =>
  acme.call("registrationrequestservice.submit_registration_request", params);

describe("submit_registration_request", () => {
  test("a signed request is stored pending, normalized, and audited with the request as target", async () => {
    const params = signedSubmit(acme, { client_email: "  Ada@Example.org ", client_name: " Ada Lovelace ", ...linked });
    const r = await acme.callOk("registrationrequestservice.submit_registration_request", params);
    expect(r).toEqual({
      sid: r.request_id,
      request_id: expect.any(String),
      reseller_id: acme.partnerId,
      request_type: "resident",
      client_email: "ada@example.org",
      client_name: "Ada Lovelace",
      status: "pending",
      kyc_session_id: linked.kyc_session_id,
      payment_id: linked.payment_id,
      signed_contract_ids: linked.signed_contract_ids,
      reseller_signature: params.reseller_signature,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    const audit = await auditRows();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      subject_id: acme.walletUserId,
      action: "partner_registration_request_submit",
      target_ref: r.request_id,
      target_type: "registration_request",
      allowed: true,
    });
    expect(JSON.parse(audit[0].context)).toMatchObject({ partner_id: acme.partnerId, via: "api_key" });
  });

  test("KYC session, payment and contracts are optional at submission", async () => {
    const r = await submit(signedSubmit(acme, { client_email: "bare@example.org" }));
    expect("result" in r && r.result).toMatchObject({
      kyc_session_id: null,
      payment_id: null,
      signed_contract_ids: [],
    });
  });

  test("a bad, malformed or foreign-key signature is InvalidSignature, audited allowed false, nothing stored", async () => {
    const good = signedSubmit(acme, { client_email: "ada@example.org", ...linked });
    const tampered = { ...good, client_name: "Eve" };
    const malformed = { ...good, reseller_signature: good.reseller_signature.toUpperCase() };
    const short = { ...good, reseller_signature: good.reseller_signature.slice(2) };
    const other = await newPartner(t, admin, { name: "Other" });
    const foreign = { ...good, reseller_signature: other.sign({ ...tamperedFields(good) }) };
    const malleable = { ...good, reseller_signature: withSPlusL(good.reseller_signature) };
    for (const params of [tampered, malformed, short, foreign, malleable]) {
      const r = await submit(params);
      expect("error" in r && r.error).toMatchObject({
        code: -32006,
        data: { type: "RegistrationRequestError", variant: "InvalidSignature" },
      });
    }
    expect(await count(t, "registration_request")).toBe(0);
    const audit = await auditRows();
    expect(audit.map((a) => [a.action, a.allowed])).toEqual(
      Array(5).fill(["partner_registration_request_submit", false]),
    );
  });

  test("a partner without a registered signing key cannot submit", async () => {
    const unsigned = await newPartner(t, admin, { name: "Unsigned", signingKey: false });
    const r = await unsigned.call(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(unsigned, { client_email: "ada@example.org" }),
    );
    expect("error" in r && r.error).toMatchObject({
      code: -32006,
      data: { variant: "InvalidSignature", reason: "no_signing_key" },
    });
    expect(await count(t, "registration_request")).toBe(0);
  });

  test("a company request needs allow_company_creation", async () => {
    const r = await submit(signedSubmit(acme, { client_email: "co@example.org", request_type: "company" }));
    expect("error" in r && r.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const allowed = await newPartner(t, admin, { name: "Companies", allow_company_creation: true });
    const ok = await allowed.call(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(allowed, { client_email: "co@example.org", request_type: "company" }),
    );
    expect("result" in ok && ok.result.status).toBe("pending");
    expect(await count(t, "registration_request")).toBe(1);
  });

  test("a KYC session, payment or signature that is unknown or another partner's is NotFound", async () => {
    const other = await newPartner(t, admin, { name: "Other" });
    const theirs = await links(t, other.walletUserId, [await requiredContract(t)]);
    const cases = [
      { kyc_session_id: theirs.kyc_session_id },
      { payment_id: theirs.payment_id },
      { signed_contract_ids: theirs.signed_contract_ids },
      { kyc_session_id: "nope" },
      { signed_contract_ids: [...linked.signed_contract_ids, "nope"] },
    ];
    for (const change of cases) {
      const r = await submit(signedSubmit(acme, { client_email: "ada@example.org", ...linked, ...change }));
      expect("error" in r && r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    }
    expect(await count(t, "registration_request")).toBe(0);
  });

  test("a second open request for the same client email and type is AlreadyExists; another type is not", async () => {
    expect("result" in (await submit())).toBe(true);
    const again = await submit(signedSubmit(acme, { client_email: "ADA@example.org" }));
    expect("error" in again && again.error).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    const other = await newPartner(t, admin, { name: "Other" });
    const elsewhere = await other.call(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(other, { client_email: "ada@example.org" }),
    );
    expect("result" in elsewhere).toBe(true);
    expect(await count(t, "registration_request")).toBe(2);
  });

  test("a rejected request frees the client email for a new one", async () => {
    const first = await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(acme, { client_email: "ada@example.org" }),
    );
    await sql(t, `update "registration_request" set status = 'rejected' where sid = ?`, [first.request_id]);
    expect("result" in (await submit(signedSubmit(acme, { client_email: "ada@example.org" })))).toBe(true);
  });

  test("invalid fields are InvalidInput, or -32602 past the schema's bounds", async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ client_email: "not-an-email" }, -32006],
      [{ client_email: "ada@example.org", client_name: "   " }, -32006],
      // one-line field: the spec's pattern refuses control characters before the handler (issue 29 item 5)
      [{ client_email: "ada@example.org", client_name: "Ada\u0007" }, -32602],
      [{ client_email: "ada@example.org", signed_contract_ids: ["a", "a"] }, -32006],
      [{ client_email: "ada@example.org", client_name: "x".repeat(201) }, -32602],
      [{ client_email: "ada@example.org", signed_contract_ids: Array(51).fill("a") }, -32602],
    ];
    for (const [fields, code] of cases) {
      const r = await submit(signedSubmit(acme, fields as { client_email: string }));
      expect("error" in r && r.error?.code).toBe(code);
    }
    expect(await count(t, "registration_request")).toBe(0);
  });

  test("a personal key or a session is refused (partner keys only); reseller_id must be the caller's", async () => {
    const ada = await t.register("ada@example.org");
    const personal = await generateKey(ada, { mcp_scope: null });
    const params = signedSubmit(acme, { client_email: "x@example.org" });
    const viaSession = await ada.rpc("registrationrequestservice.submit_registration_request", params);
    expect(viaSession.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const viaKey = await t.rpc("registrationrequestservice.submit_registration_request", params, {
      "x-api-key": personal.key,
    });
    expect(viaKey.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const other = await newPartner(t, admin, { name: "Other" });
    const spoof = await acme.rpc("registrationrequestservice.submit_registration_request", {
      ...params,
      reseller_id: other.partnerId,
    });
    expect(spoof.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect(await count(t, "registration_request")).toBe(0);
  });
});

/** The same signature with S + L (the group order): valid under a lax verifier, refused by a strict one. */
function withSPlusL(signatureHex: string): string {
  const bytes = Buffer.from(signatureHex, "hex");
  const s = BigInt(`0x${Buffer.from(bytes.subarray(32)).reverse().toString("hex")}`);
  const bumped = s + 2n ** 252n + 27742317777372353535851937790883648493n;
  const le = Buffer.from(bumped.toString(16).padStart(64, "0"), "hex").reverse();
  return Buffer.concat([bytes.subarray(0, 32), le]).toString("hex");
}

function tamperedFields(p: ReturnType<typeof signedSubmit>) {
  return {
    request_type: p.request_type,
    client_email: p.client_email,
    client_name: p.client_name,
    kyc_session_id: p.kyc_session_id ?? null,
    payment_id: p.payment_id ?? null,
    signed_contract_ids: p.signed_contract_ids,
  };
}

describe("status and list", () => {
  test("get_registration_request_status answers the partner's own request and NotFound for another's", async () => {
    const r = await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(acme, { client_email: "ada@example.org" }),
    );
    const mine = await acme.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: r.request_id,
    });
    expect(mine).toMatchObject({
      request_id: r.request_id,
      status: "pending",
      info_request_message: null,
      rejection_reason: null,
      reviewed_at: null,
      created_entity_id: null,
    });
    const other = await newPartner(t, admin, { name: "Other" });
    for (const id of [r.request_id, "nope"]) {
      const theirs = await other.call("registrationrequestservice.get_registration_request_status", { request_id: id });
      expect("error" in theirs && theirs.error).toMatchObject({
        code: -32003,
        data: { type: "RegistrationRequestError", variant: "NotFound" },
      });
    }
  });

  test("list shows the partner's requests only, newest first", async () => {
    const other = await newPartner(t, admin, { name: "Other" });
    await other.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(other, { client_email: "z@example.org" }),
    );
    for (const n of [1, 2, 3]) {
      t.clock.advance(1);
      await acme.callOk(
        "registrationrequestservice.submit_registration_request",
        signedSubmit(acme, { client_email: `c${n}@example.org` }),
      );
    }
    const list = await acme.callOk("registrationrequestservice.list_registration_requests", {});
    expect(list.truncated).toBe(false);
    expect(list.items.map((i) => i.client_email)).toEqual(["c3@example.org", "c2@example.org", "c1@example.org"]);
  });

  test("list answers the 500 newest and says so; generic CRUD pages through the partner's whole history", async () => {
    await sql(
      t,
      `insert into "registration_request" (sid, partner_id, request_type, client_email, client_name, signed_contract_ids,
         reseller_signature, signed_payload, status, created_at, updated_at)
       select lpad(n::text, 8, '0'), ?, 'resident', 'c' || n || '@example.org', 'C', '{}', 's', 'p', 'rejected', now(), now()
       from generate_series(1, 501) as n`,
      [acme.partnerId],
    );
    const list = await acme.callOk("registrationrequestservice.list_registration_requests", {});
    expect(list.items).toHaveLength(500);
    expect(list.truncated).toBe(true);
    expect(list.items[0]?.request_id).toBe("00000501");
    expect(list.items.at(-1)?.request_id).toBe("00000002");
    const page = await acme.rpc("registrationrequest.list", { limit: 1000 });
    expect(page.result.sids).toHaveLength(501);
    const other = await newPartner(t, admin, { name: "Other" });
    expect((await other.rpc("registrationrequest.list", {})).result.sids).toEqual([]);
  });
});
