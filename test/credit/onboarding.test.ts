import { describe, expect, test } from "vitest";
import { onboardingSteps } from "../../src/domain/onboarding.ts";
import { startTestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { fund } from "./support.ts";

describe("onboarding rule", () => {
  test("everything done: every step completed, tier 4, no next step", () => {
    const at = new Date("2026-11-23T10:00:00.000Z");
    const r = onboardingSteps({
      emailVerified: true,
      doneAt: {
        create_resident: at,
        verify_identity: at,
        fund_wallet: at,
        activate_residency: at,
        register_company: at,
      },
    });
    expect(r).toMatchObject({ current_tier: 4, completed: true, next_step: null });
    expect(r.steps.every((s) => s.status === "completed")).toBe(true);
  });
});

describe("get_onboarding_status", () => {
  test("derives step states from the user's real progress", async () => {
    const t = await startTestApp();
    const admin = await t.admin();
    const ada = await t.register("ada@example.org");
    const fresh = await ada.callOk("creditservice.get_onboarding_status", {});
    expect(fresh).toMatchObject({ user_id: ada.userId, current_tier: 0, completed: false, next_step: "verify_email" });
    expect(fresh.steps.map((s) => s.status)).toEqual(["available", "locked", "locked", "locked", "locked", "locked"]);

    await sql(t, `update "user" set email_verified = true where sid = ?`, [ada.userId]);
    await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(ada.userId, { status: "pending" }));
    await fund(admin, ada.userId, 5);
    const later = await ada.callOk("creditservice.get_onboarding_status", {});
    expect(later).toMatchObject({ current_tier: 1, completed: false, next_step: "verify_identity" });
    expect(later.steps.map((s) => [s.key, s.status])).toEqual([
      ["verify_email", "completed"],
      ["create_resident", "completed"],
      ["verify_identity", "available"],
      ["fund_wallet", "completed"],
      ["activate_residency", "locked"],
      ["register_company", "locked"],
    ]);
    expect(later.steps[3]?.completed_at).toBe(t.clock.now().toISOString());

    const other = await ada.call("creditservice.get_onboarding_status", { user_id: admin.userId });
    expect(errorOf(other).code).toBe(-32002);
  });
});
