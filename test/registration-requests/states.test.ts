import { beforeAll, describe, expect, test } from "vitest";
import type { RegistrationRequestStatus } from "../../generated/types.ts";
import type { RpcReply } from "../support/app.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import {
  adminWithKey,
  approvalSignature,
  type KeyPair,
  type Links,
  links,
  newPartner,
  type Partner,
  requiredContract,
  signedSubmit,
} from "./support.ts";

/*
 * docs/decisions.md "Registration request states", over HTTP: every status against every move, allowed and
 * refused. A refused move answers InvalidState naming the status it found, and leaves the request as it was.
 */

type Move = "verify" | "start_review" | "ask_info" | "partner_update" | "approve" | "reject";
const REFUSED = "InvalidState";

const TABLE: Record<RegistrationRequestStatus, Record<Move, RegistrationRequestStatus | typeof REFUSED>> = {
  pending: {
    verify: "pending",
    start_review: "under_review",
    ask_info: "needs_info",
    partner_update: "pending",
    approve: "approved",
    reject: "rejected",
  },
  under_review: {
    verify: "under_review",
    start_review: REFUSED,
    ask_info: "needs_info",
    partner_update: REFUSED,
    approve: "approved",
    reject: "rejected",
  },
  needs_info: {
    verify: "needs_info",
    start_review: REFUSED,
    ask_info: "needs_info",
    partner_update: "pending",
    approve: "approved",
    reject: "rejected",
  },
  approved: {
    verify: "approved",
    start_review: REFUSED,
    ask_info: REFUSED,
    partner_update: REFUSED,
    approve: REFUSED,
    reject: REFUSED,
  },
  rejected: {
    verify: "rejected",
    start_review: REFUSED,
    ask_info: REFUSED,
    partner_update: REFUSED,
    approve: REFUSED,
    reject: REFUSED,
  },
};

let t: TestApp;
let admin: Client;
let adminKeys: KeyPair;
let acme: Partner;
let linked: Links;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  adminKeys = await adminWithKey(t, admin);
  acme = await newPartner(t, admin);
  linked = await links(t, acme.walletUserId, [await requiredContract(t)]);
});

let cases = 0;
async function requestIn(status: RegistrationRequestStatus): Promise<string> {
  cases += 1;
  const email = `client${cases}@example.org`;
  const r = await acme.callOk(
    "registrationrequestservice.submit_registration_request",
    signedSubmit(acme, { client_email: email, ...linked }),
  );
  await sql(t, `update "registration_request" set status = ? where sid = ?`, [status, r.request_id]);
  return r.request_id;
}

async function run(move: Move, id: string): Promise<RpcReply> {
  const base = { request_id: id, admin_email: admin.email };
  switch (move) {
    case "verify":
      // A check (issue 30): answers the status as it stands and moves nothing.
      return admin.rpc("adminregistrationservice.verify_registration_prerequisites", { request_id: id });
    case "start_review":
      return admin.rpc("adminregistrationservice.start_review", base);
    case "ask_info":
      return admin.rpc("adminregistrationservice.request_additional_info", { ...base, message: "more" });
    case "partner_update":
      return acme.rpc("registrationrequestservice.update_registration_request", {
        request_id: id,
        client_name: "Ada King",
      });
    case "approve":
      return admin.rpc("adminregistrationservice.approve_registration", {
        ...base,
        admin_signature: await approvalSignature(t, adminKeys, id, admin.email),
      });
    case "reject":
      return admin.rpc("adminregistrationservice.reject_registration", { ...base, reason: "no" });
  }
}

const statusOf = async (id: string) =>
  (await sql(t, `select status from "registration_request" where sid = ?`, [id]))[0]?.status;

describe("every RegistrationRequestStatus move", () => {
  for (const [from, moves] of Object.entries(TABLE) as [RegistrationRequestStatus, Record<Move, string>][]) {
    for (const [move, expected] of Object.entries(moves) as [Move, string][]) {
      test(`${from} + ${move} -> ${expected}`, async () => {
        const id = await requestIn(from);
        const r = await run(move, id);
        if (expected === REFUSED) {
          expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState", status: from } });
          expect(await statusOf(id)).toBe(from);
        } else {
          expect(r.error).toBeUndefined();
          expect(r.result.status).toBe(expected);
          expect(await statusOf(id)).toBe(expected);
        }
      });
    }
  }
});
