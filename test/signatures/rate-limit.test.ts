import { describe, expect, test } from "vitest";
import { limits } from "../identity/support.ts";
import { startTestApp } from "../support/app.ts";
import { errorOf } from "../support/helpers.ts";
import { insertResident } from "./support.ts";

describe("lookups are rate limited per client address", () => {
  test("past the limit every lookup is RateLimited with retry_after_s, whatever the method", async () => {
    const limited = await startTestApp({ rateLimits: limits({ perAddressPerMinute: 3 }) });
    const user = await limited.register("rate@example.org");
    const resident = await insertResident(limited, user.userId);
    for (let i = 0; i < 3; i++) {
      await limited.callOk("verificationservice.verify_individual", { resident_id: resident, requester_tier: 1 });
    }
    for (const r of [
      await limited.call("verificationservice.verify_individual", { resident_id: resident, requester_tier: 1 }),
      await limited.call("verificationservice.verify_company", { company_id: "FZ-2026-Y000001", requester_tier: 1 }),
      await limited.call("verificationservice.verify_by_token", { token: "fzl_x" }),
    ]) {
      expect(errorOf(r)).toMatchObject({ code: -32007, data: { type: "VerificationError", variant: "RateLimited" } });
      expect(errorOf(r).data.retry_after_s).toBeGreaterThan(0);
    }
    limited.clock.advance(61);
    expect(
      await limited.callOk("verificationservice.verify_individual", { resident_id: resident, requester_tier: 1 }),
    ).toMatchObject({ tier: 1 });
  });
});
