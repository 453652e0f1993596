import { beforeEach, describe, expect, test } from "vitest";
import {
  createResident,
  insertContract,
  insertPayment,
  insertSignature,
  residentRow,
  verifyEmail,
} from "../residents/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { deliver, sandboxVerdict, startKyc } from "./support.ts";

// A completed verification moves registration on (issue 14 "Activation"): the flow reaches kyc_complete, and a
// pending resident whose other steps are done becomes active in the webhook's transaction, by the one rule.
let t: TestApp;
let ada: Client;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

async function residentReadyButKyc(withPayment: boolean) {
  await verifyEmail(t, ada.userId);
  const r = await createResident(ada);
  const terms = await insertContract(t, "terms_of_service");
  const residency = await insertContract(t, "digital_residency", { category: "digital_residency" });
  await insertSignature(t, ada.userId, terms);
  await insertSignature(t, ada.userId, residency, { entity_type: "digital_resident", entity_id: r.sid });
  if (withPayment) await insertPayment(t, ada.userId, r.resident_id, { subscription_plan: "1_year" });
  return r;
}

const flowStatus = async () =>
  (await sql(t, `select status from "registration_flow" where user_id = ?`, [ada.userId])).map((f) => f.status);

describe("KYC completion and activation", () => {
  test("an approved verdict activates a resident whose other steps are complete", async () => {
    const r = await residentReadyButKyc(true);
    const s = await startKyc(t, ada, r.resident_id);
    expect((await residentRow(t, r.resident_id))?.["status"]).toBe("pending");
    await deliver(t, sandboxVerdict(t, s.scanRef));
    const row = await residentRow(t, r.resident_id);
    expect(row?.["status"]).toBe("active");
    expect(await flowStatus()).toEqual(["registration_complete"]);
    expect(await ada.callOk("registrationservice.check_kyc_complete", {})).toMatchObject({
      kyc_complete: true,
      kyc_status: "completed",
    });
  });

  test("without the payment the resident stays pending and the flow records kyc_complete", async () => {
    const r = await residentReadyButKyc(false);
    const s = await startKyc(t, ada, r.resident_id);
    await deliver(t, sandboxVerdict(t, s.scanRef));
    expect((await residentRow(t, r.resident_id))?.["status"]).toBe("pending");
    expect(await flowStatus()).toEqual(["kyc_complete"]);
    const later = await ada.callOk("registrationservice.activate_if_complete", {});
    expect(later).toMatchObject({ activated: false, missing_steps: ["payment"] });
  });
});
