import { expect, test } from "vitest";
import { startTestApp } from "../support/app.ts";
import { count } from "../support/helpers.ts";
import { userWithResident } from "./support.ts";

test("five concurrent approvals of one registration create one resident and one proxy", async () => {
  const t = await startTestApp();
  const admin = await t.admin();
  const { client: ada } = await userWithResident(t, "ada@example.org");
  const r = await ada.callOk("kybservice.submit", {
    legal_name: "Acme Trading Ltd",
    jurisdiction: "GB",
    registration_number: "01234567",
    documents: ["ref:incorporation"],
  });
  const replies = await Promise.all(
    Array.from({ length: 5 }, () => admin.rpc("kybservice.approve", { registration_id: r.registration_id })),
  );
  expect(replies.map((x) => x.error?.data?.variant ?? "ok").sort()).toEqual([
    "InvalidState",
    "InvalidState",
    "InvalidState",
    "InvalidState",
    "ok",
  ]);
  expect(await count(t, "digital_resident", "resident_type = 'external_company'")).toBe(1);
  expect(await count(t, "proxy")).toBe(1);
});
