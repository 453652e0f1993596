import { beforeAll, expect, test } from "vitest";
import { COMPANY_FORM, formCompany, journeyCast, rolesOf } from "../journeys/support.ts";

// Issue 30: companyservice.delete deletes only draft / pending_signatures companies, which no operation creates (a
// formation's states before activation are its EntityDraft's); every company that exists was active and is voided,
// never deleted. Public API only (docs/decisions.md "Email links, registration steps and deletion (issue 30)").

const cast = journeyCast({ ann: {}, bob: {} });
let companyId = "";
beforeAll(async () => {
  companyId = (await formCompany(cast.zone, { resident: cast.ann, units: 100 }, [{ resident: cast.bob, units: 50 }]))
    .companyId;
}, 120_000);

test("a formed company is written active: its founder's delete is InvalidState and removes nothing", async () => {
  const ann = cast.ann.client;
  const before = await ann.callOk("companyservice.get", { company_id: companyId });
  expect(before.status).toBe("active");
  const roles = await rolesOf(ann, companyId);
  const r = await ann.call("companyservice.delete", { company_id: companyId });
  expect("error" in r && r.error).toMatchObject({
    code: -32005,
    data: { type: "CompanyError", variant: "InvalidState", status: "active" },
  });
  expect(await ann.callOk("companyservice.get", { company_id: companyId })).toEqual(before);
  expect(await rolesOf(ann, companyId)).toEqual(roles);
});

test("a shareholder who is not the founder is Forbidden; a stranger NotFound", async () => {
  const bob = await cast.bob.client.call("companyservice.delete", { company_id: companyId });
  expect("error" in bob && bob.error).toMatchObject({ code: -32002 });
  const stranger = await cast.zone.t.register("stranger@example.org");
  const r = await stranger.call("companyservice.delete", { company_id: companyId });
  expect("error" in r && r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  expect((await cast.ann.client.callOk("companyservice.get", { company_id: companyId })).status).toBe("active");
});

test("a formation that never activated is removed by its creator through cancel_draft, and no company exists", async () => {
  const ann = cast.ann.client;
  const draft = await ann.callOk("entitydraftservice.create_draft", {
    entity_type: "company",
    entity_name: "Never Active FZC",
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_FORM),
    shareholders: [{ name: cast.ann.name, email: cast.ann.email, resident_id: null, units: 10, role: "shareholder" }],
  });
  expect((await ann.callOk("entitydraftservice.cancel_draft", { draft_id: draft.sid })).status).toBe("cancelled");
  const mine = await ann.callOk("companyservice.list", { page: 1, page_size: 100 });
  expect(mine.items.map((c) => c.company_id)).toEqual([companyId]);
});
