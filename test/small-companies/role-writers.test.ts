import { expect, test } from "vitest";
import { formCompany, journeyCast, signHash } from "../journeys/support.ts";

/*
 * Issue 30: CompanyRole.created_by is "the formatted id of the writer" (seed 000), never a user id or "admin". The
 * acting resident where one acts; where none does (an administrator's session), the company's own formatted id
 * (src/domain/company-roles.ts roleWriter; openRole refuses anything else). Public API only.
 */

const cast = journeyCast({
  gina: { first_name: "Gina", last_name: "Giver", spare: 200 },
  ivan: { first_name: "Ivan", last_name: "Taker" },
});

const FORMATTED = /^FZ-\d{4}-(RA|Y|P)\d{6}$/;

test("roles written by a formation, and by an administrator completing a transfer, name formatted writers", async () => {
  const { zone, gina, ivan } = cast;
  const company = await formCompany(zone, { resident: gina, units: 100 }, [], { company_type: "single_fzc" });
  const formed = await gina.client.callOk("companyroleservice.list_by_company", {
    company_id: company.companyId,
    as_of_epoch: 0,
  });
  expect(formed.items.map((r) => [r.role, r.created_by]).sort()).toEqual([
    ["founder", gina.residentId],
    ["shareholder", gina.residentId],
  ]);

  const transfer = await gina.client.callOk("shareholderservice.initiate_transfer", {
    company_id: company.companyId,
    from_resident_id: gina.residentId,
    to_resident_id: ivan.residentId,
    units: 40,
  });
  await ivan.client.callOk("shareholderservice.approve_transfer", {
    transfer_id: transfer.sid,
    to_signature: signHash(ivan.keys, transfer.transfer_hash),
  });
  const done = await zone.admin.callOk("shareholderservice.complete_transfer", { transfer_id: transfer.sid });
  expect(done.status).toBe("completed");
  const roles = await gina.client.callOk("companyroleservice.list_by_company", {
    company_id: company.companyId,
    as_of_epoch: 0,
  });
  const ivans = roles.items.filter((r) => r.holder_name === ivan.name);
  expect(ivans.map((r) => [r.role, r.created_by])).toEqual([["shareholder", company.companyId]]);
  for (const r of roles.items) expect(r.created_by).toMatch(FORMATTED);
});
