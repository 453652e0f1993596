import { expect, test } from "vitest";
import { sandboxKybCallback, sandboxKybVerdict } from "../../src/integrations/kyb/sandbox.ts";
import { expectReached } from "../support/reached.ts";
import { journeyCast, type Zone } from "./support.ts";

// Seed 000, external companies: a resident registers a company incorporated elsewhere (KYB). The provider's check
// is opened, its signed verdict arrives, an administrator approves; the registry writes an `external_company`
// resident and gives the submitter an admin proxy for it, through which the submitter reads and acts for it. The
// proxy is revoked and the acting stops at once. A second registration the provider denies is rejected with a
// reason the submitter reads. Public API only (see support.ts).

expectReached({
  KybStatus: ["pending", "in_progress", "approved", "rejected"],
  ProxyStatus: ["active", "revoked"],
});

const cast = journeyCast({
  ada: { first_name: "Ada", last_name: "Trader" },
  bob: { first_name: "Bob", last_name: "Stranger" },
});

const STEPS = [
  "the resident registers a foreign company: pending",
  "the provider's check is opened: in progress",
  "the provider's signed verdict arrives: approved by the provider",
  "an administrator approves: an external-company resident and an admin proxy",
  "the submitter acts for the company through the proxy; a stranger cannot",
  "the administrator revokes the proxy: the acting stops",
  "a second company the provider denies is rejected with a reason",
] as const;

let events = 0;

/** The sandbox KYB provider's verdict for a check it opened, signed and posted as it posts it. */
async function postKybVerdict(zone: Zone, scanRef: string, registrationNumber: string) {
  events += 1;
  const now = zone.t.clock.now();
  const verdict = {
    event_id: `journey-kyb-${events}`,
    scan_ref: scanRef,
    verdict: sandboxKybVerdict(registrationNumber),
    reason: null,
    checked_at: now.toISOString(),
  };
  const { body, headers } = sandboxKybCallback(zone.t.config.webhookSecret, verdict, now);
  const r = await zone.t.post("/rpc", body, headers);
  if (r.error) throw new Error(`KYB webhook refused: ${JSON.stringify(r.error)}`);
}

test(`an external company: KYB, approval, proxy, revocation (${STEPS.length} steps)`, async () => {
  const { zone, ada, bob } = cast;
  const { admin } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);
  const company = (legal_name: string, registration_number: string) => ({
    legal_name,
    jurisdiction: "gb",
    registration_number,
    documents: ["https://files.example.org/incorporation.pdf"] as [string, ...string[]],
  });

  step("the resident registers a foreign company: pending");
  const submitted = await ada.client.callOk("kybservice.submit", company("Acme Trading Ltd", "01234567"));
  expect(submitted).toMatchObject({ kyb_status: "pending", legal_name: "Acme Trading Ltd", linked_dr_id: null });
  const hidden = await bob.client.call("kybservice.get", { registration_id: submitted.registration_id });
  expect("error" in hidden && hidden.error.code).toBe(-32003);

  step("the provider's check is opened: in progress");
  const checking = await ada.client.callOk("kybservice.start_check", {
    registration_id: submitted.registration_id,
  });
  expect(checking.kyb_status).toBe("in_progress");
  expect(checking.kyb_scan_ref).toBeTruthy();

  step("the provider's signed verdict arrives: approved by the provider");
  await postKybVerdict(zone, checking.kyb_scan_ref ?? "", checking.registration_number);
  const checked = await ada.client.callOk("kybservice.get", { registration_id: submitted.registration_id });
  expect(checked).toMatchObject({ kyb_status: "in_progress", kyb_provider_status: "approved" });
  // Approval is the administrator's: the submitter cannot approve its own company.
  const self = await ada.client.call("kybservice.approve", { registration_id: submitted.registration_id });
  expect("error" in self && self.error.code).toBe(-32002);

  step("an administrator approves: an external-company resident and an admin proxy");
  const approved = await admin.callOk("kybservice.approve", {
    registration_id: submitted.registration_id,
    note: "register entry checked",
  });
  expect(approved.kyb_status).toBe("approved");
  const companyResident = approved.linked_dr_id ?? "";
  expect(companyResident).toMatch(/^FZ-\d{4}-RA\d{6}$/);
  const proxies = await ada.client.callOk("proxyservice.list_proxies", { resident_id: ada.residentId });
  expect(proxies.items).toEqual([
    expect.objectContaining({
      principal_dr_id: ada.residentId,
      target_dr_id: companyResident,
      role: "admin_proxy",
      status: "active",
      effective: true,
    }),
  ]);

  step("the submitter acts for the company through the proxy; a stranger cannot");
  const seen = await ada.client.callOk("residentservice.get", { resident_id: companyResident });
  expect(seen).toMatchObject({ resident_id: companyResident, resident_type: "external_company" });
  const accounts = await ada.client.call("treasuryservice.list_resident_accounts", { resident_id: companyResident });
  expect("result" in accounts).toBe(true);
  const stranger = await bob.client.call("residentservice.get", { resident_id: companyResident });
  expect("error" in stranger && stranger.error.code).toBe(-32003);

  step("the administrator revokes the proxy: the acting stops");
  const proxyId = proxies.items[0]?.sid ?? "";
  const revoked = await admin.callOk("proxyservice.revoke_proxy", { proxy_id: proxyId });
  expect(revoked).toMatchObject({ status: "revoked", effective: false });
  const after = await ada.client.call("treasuryservice.list_resident_accounts", { resident_id: companyResident });
  expect("error" in after && after.error.code).toBe(-32002);
  const listed = await ada.client.callOk("proxyservice.list_proxies", { resident_id: ada.residentId });
  expect(listed.items.map((p) => [p.sid, p.status, p.effective])).toEqual([[proxyId, "revoked", false]]);

  step("a second company the provider denies is rejected with a reason");
  const second = await ada.client.callOk("kybservice.submit", company("Shadow Holdings Ltd", "denied-778899"));
  const opened = await ada.client.callOk("kybservice.start_check", { registration_id: second.registration_id });
  await postKybVerdict(zone, opened.kyb_scan_ref ?? "", opened.registration_number);
  const denied = await ada.client.callOk("kybservice.get", { registration_id: second.registration_id });
  expect(denied).toMatchObject({ kyb_status: "in_progress", kyb_provider_status: "denied" });
  await admin.callOk("kybservice.reject", {
    registration_id: second.registration_id,
    reason: " register entry not found ",
  });
  const rejected = await ada.client.callOk("kybservice.get", { registration_id: second.registration_id });
  expect(rejected).toMatchObject({
    kyb_status: "rejected",
    rejection_reason: "register entry not found",
    linked_dr_id: null,
  });
  const mine = await ada.client.callOk("kybservice.list", {});
  expect(mine.items.map((r) => [r.legal_name, r.kyb_status]).sort()).toEqual([
    ["Acme Trading Ltd", "approved"],
    ["Shadow Holdings Ltd", "rejected"],
  ]);

  expect(done).toEqual([...STEPS]);
});
