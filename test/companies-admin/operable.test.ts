import { beforeAll, describe, expect, test } from "vitest";
import { companyOperableRefusal } from "../../src/repos/companies.ts";
import type { TestApp } from "../support/app.ts";
import { insertCompany, startFinanceApp } from "../support/entities.ts";

let t: TestApp;
let userId: string;
beforeAll(async () => {
  t = await startFinanceApp();
  userId = (await t.register("operable@example.org")).userId;
});

const check = (id: string, action?: "read" | "operate") =>
  companyOperableRefusal(t.app.runtime.orm.em.fork(), id, action);

describe("companyOperableRefusal (the call site guard)", () => {
  test("an active company operates; a voided or suspended one is refused InvalidState; unknown is missing", async () => {
    expect(await check(await insertCompany(t, userId))).toBeNull();
    const voided = await insertCompany(t, userId, { status: "voided", void_reason: "x" });
    expect(await check(voided)).toMatchObject({ refusal: "InvalidState", details: { status: "voided" } });
    expect(await check(voided, "read")).toBeNull();
    const suspended = await insertCompany(t, userId, { status: "suspended" });
    expect(await check(suspended)).toMatchObject({ refusal: "InvalidState", details: { status: "suspended" } });
    expect(await check("FZ-2026-Y999999")).toBe("missing");
  });
});
