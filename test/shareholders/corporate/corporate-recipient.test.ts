import { expect, test } from "vitest";
import { formCompany, journeyCast, newKeypair, rolesOf, signHash } from "../../journeys/support.ts";

// A company receiving units (a corporate holder, issue 30; docs/decisions.md "Corporate holders and cooperative
// membership (issue 30)"): a shareholder transfers units to another company, one of that company's directors
// countersigns with the company's key, a director of the issuing company completes it, and the holder company
// appears on the cap table and in the roles under its name. Public API only.

const cast = journeyCast({
  ana: { first_name: "Ana", last_name: "Issuer" },
  ben: { first_name: "Ben", last_name: "Holder" },
});

const errorOf = (r: object): unknown => ("error" in r ? r.error : undefined);

test("units transferred to a company: countersigned by its director with the company key, then completed", async () => {
  const { zone, ana, ben } = cast;
  const issuer = await formCompany(zone, { resident: ana, units: 100 }, []);
  const holdco = await formCompany(zone, { resident: ben, units: 10 }, []);
  const keys = newKeypair();
  await ben.client.callOk("companyservice.store_company_keypair", {
    company_id: holdco.companyId,
    public_key: keys.publicKey,
    encrypted_private_key: keys.encryptedPrivateKey,
  });
  const initiate = (to: string) =>
    ana.client.call("shareholderservice.initiate_transfer", {
      company_id: issuer.companyId,
      from_resident_id: ana.residentId,
      to_resident_id: to,
      units: 40,
    });
  // A company cannot hold its own units; an unknown company is not found.
  expect(errorOf(await initiate(issuer.companyId))).toMatchObject({ data: { variant: "InvalidInput" } });
  const unknown = holdco.companyId.replace(/\d{6}$/, "999999");
  expect(errorOf(await initiate(unknown))).toMatchObject({ code: -32003 });
  const started = await initiate(holdco.companyId);
  if ("error" in started) throw new Error(JSON.stringify(started.error));
  const transfer = started.result;
  expect(transfer).toMatchObject({ status: "pending", to_resident_id: holdco.companyId, units: 40 });

  // Ana, a member of the issuer but no director of the holder company, sees it and may not countersign.
  const byAna = await ana.client.call("shareholderservice.approve_transfer", {
    transfer_id: transfer.sid,
    to_signature: signHash(keys, transfer.transfer_hash),
  });
  expect(errorOf(byAna)).toMatchObject({ data: { variant: "NotOwner" } });
  // Ben's own resident key is not the holder's key.
  const wrongKey = await ben.client.call("shareholderservice.approve_transfer", {
    transfer_id: transfer.sid,
    to_signature: signHash(ben.keys, transfer.transfer_hash),
  });
  expect(errorOf(wrongKey)).toMatchObject({ data: { variant: "InvalidSignature" } });
  const approved = await ben.client.callOk("shareholderservice.approve_transfer", {
    transfer_id: transfer.sid,
    to_signature: signHash(keys, transfer.transfer_hash),
  });
  expect(approved.status).toBe("approved");

  const completed = await ana.client.callOk("shareholderservice.complete_transfer", { transfer_id: transfer.sid });
  expect(completed.status).toBe("completed");
  const company = await ana.client.callOk("companyservice.get", { company_id: issuer.companyId });
  const holdcoName = (await ben.client.callOk("companyservice.get", { company_id: holdco.companyId })).name;
  expect(company.shareholders.map((s) => [s.resident_id, s.name, s.units])).toEqual([
    [ana.residentId, ana.name, 60],
    [holdco.companyId, holdcoName, 40],
  ]);
  expect((await rolesOf(ana.client, issuer.companyId))[holdcoName]).toEqual(["shareholder"]);
  // The holder company's owner reads its holdings across companies.
  const held = await ben.client.callOk("companyroleservice.list_by_resident", {
    subject_id: holdco.companyId,
    as_of_epoch: 0,
  });
  expect(held.items.filter((r) => r.company_id === issuer.companyId).map((r) => r.role)).toEqual(["shareholder"]);
});
