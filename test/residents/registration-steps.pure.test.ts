import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type FlowFacts, flowStatusOf, flowStepsOf } from "../../src/domain/activation.ts";

// Issue 30: the steps get_status reports follow its status, so they are monotone whatever the records say.

const facts = fc.record<FlowFacts>({
  identity: fc.boolean(),
  personalInfo: fc.boolean(),
  payment: fc.boolean(),
  paymentPending: fc.boolean(),
  kyc: fc.boolean(),
  kycPending: fc.boolean(),
  registered: fc.boolean(),
});

describe("flowStepsOf", () => {
  test("for any records, a later step is never done while an earlier one is not", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const s = flowStepsOf(flowStatusOf(f));
        const flags = [s.identity, s.personalInfo, s.payment, s.kyc, s.registration];
        expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
        // A step reads done only when its own record says so, or the registration happened (it needed them all).
        if (!f.registered) {
          expect(s.identity && !f.identity).toBe(false);
          expect(s.payment && !f.payment).toBe(false);
          expect(s.kyc && !f.kyc).toBe(false);
        }
      }),
    );
  });

  test("each status stands for exactly the steps before it", () => {
    const done = (status: Parameters<typeof flowStepsOf>[0]) =>
      Object.entries(flowStepsOf(status))
        .filter(([, v]) => v)
        .map(([k]) => k);
    expect(done("identity_pending")).toEqual([]);
    expect(done("identity_complete")).toEqual(["identity"]);
    expect(done("personal_info_complete")).toEqual(["identity", "personalInfo"]);
    expect(done("payment_pending")).toEqual(["identity", "personalInfo"]);
    expect(done("payment_complete")).toEqual(["identity", "personalInfo", "payment"]);
    expect(done("kyc_pending")).toEqual(["identity", "personalInfo", "payment"]);
    expect(done("kyc_complete")).toEqual(["identity", "personalInfo", "payment", "kyc"]);
    expect(done("registration_complete")).toEqual(["identity", "personalInfo", "payment", "kyc", "registration"]);
  });

  test("KYC done before the payment: the flow waits at the payment, kyc not done", () => {
    const status = flowStatusOf({
      identity: true,
      personalInfo: true,
      payment: false,
      paymentPending: false,
      kyc: true,
      kycPending: false,
      registered: false,
    });
    expect(status).toBe("personal_info_complete");
    expect(flowStepsOf(status).kyc).toBe(false);
  });
});
