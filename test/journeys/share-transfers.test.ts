import { expect, test } from "vitest";
import type { Client } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import { formCompany, journeyCast, type Resident, rolesOf, signHash } from "./support.ts";

// Seed 000, share transfers: a shareholder offers units to a resident, who declines; offered again, the recipient
// countersigns the canonical terms with its Ed25519 key, a director completes it and the cap table moves (the
// company's total never changes, the recipient becomes a shareholder). A third offer is withdrawn by the giver.
// Each party reads the transfer and the cap table at each step. Public API only (see support.ts).

expectReached({
  ShareTransferStatus: ["pending", "approved", "rejected", "completed", "cancelled"],
});

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Founder" },
  bob: { first_name: "Bob", last_name: "Giver" },
  carol: { first_name: "Carol", last_name: "Taker" },
  dan: { first_name: "Dan", last_name: "Later" },
});

const STEPS = [
  "form the company: 800 and 200 units",
  "the shareholder offers 50 units: pending, with the terms to sign",
  "the recipient declines: rejected, nothing moves",
  "offered again, the recipient countersigns: approved",
  "the giver cannot complete; a director does: the cap table moves",
  "the recipient is a shareholder now",
  "units in an open offer cannot be offered twice",
  "the giver withdraws a third offer: cancelled",
] as const;

async function capTable(client: Client, companyId: string): Promise<Record<string, number>> {
  const company = await client.callOk("companyservice.get", { company_id: companyId });
  return Object.fromEntries(company.shareholders.map((s) => [s.name, s.units]));
}

test(`share transfers: declined, countersigned and completed, withdrawn (${STEPS.length} steps)`, async () => {
  const { zone, alice, bob, carol, dan } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);
  const offer = (to: Resident, units: number, reason?: string) =>
    bob.client.callOk("shareholderservice.initiate_transfer", {
      company_id: companyId,
      from_resident_id: bob.residentId,
      to_resident_id: to.residentId,
      units,
      ...(reason === undefined ? {} : { reason }),
    });

  step("form the company: 800 and 200 units");
  const { companyId } = await formCompany(zone, { resident: alice, units: 800 }, [{ resident: bob, units: 200 }]);
  expect(await capTable(bob.client, companyId)).toEqual({ [alice.name]: 800, [bob.name]: 200 });

  step("the shareholder offers 50 units: pending, with the terms to sign");
  const first = await offer(carol, 50, "  A stake for our new partner  ");
  expect(first).toMatchObject({
    status: "pending",
    units: 50,
    from_resident_id: bob.residentId,
    to_resident_id: carol.residentId,
    reason: "A stake for our new partner",
    to_signature: null,
  });
  expect(first.transfer_hash).toMatch(/^[0-9a-f]{64}$/);

  step("the recipient declines: rejected, nothing moves");
  // Only the recipient decides: the giver is NotOwner.
  const byGiver = await bob.client.call("shareholderservice.reject_transfer", { transfer_id: first.sid });
  expect("error" in byGiver && byGiver.error.data?.variant).toBe("NotOwner");
  const rejected = await carol.client.callOk("shareholderservice.reject_transfer", { transfer_id: first.sid });
  expect(rejected.status).toBe("rejected");
  expect(rejected.rejected_at).toBe(zone.t.clock.now().toISOString());
  expect(await capTable(alice.client, companyId)).toEqual({ [alice.name]: 800, [bob.name]: 200 });
  const lateSign = await carol.client.call("shareholderservice.approve_transfer", {
    transfer_id: first.sid,
    to_signature: signHash(carol.keys, first.transfer_hash),
  });
  expect("error" in lateSign && lateSign.error.data?.variant).toBe("InvalidState");

  step("offered again, the recipient countersigns: approved");
  const second = await offer(carol, 50);
  // A signature by another key does not verify.
  const forged = await carol.client.call("shareholderservice.approve_transfer", {
    transfer_id: second.sid,
    to_signature: signHash(dan.keys, second.transfer_hash),
  });
  expect("error" in forged && forged.error.data?.variant).toBe("InvalidSignature");
  const approved = await carol.client.callOk("shareholderservice.approve_transfer", {
    transfer_id: second.sid,
    to_signature: signHash(carol.keys, second.transfer_hash),
  });
  expect(approved).toMatchObject({ status: "approved", to_signature: signHash(carol.keys, second.transfer_hash) });

  step("the giver cannot complete; a director does: the cap table moves");
  const byShareholder = await bob.client.call("shareholderservice.complete_transfer", { transfer_id: second.sid });
  expect("error" in byShareholder && byShareholder.error.data?.variant).toBe("Forbidden");
  const completed = await alice.client.callOk("shareholderservice.complete_transfer", { transfer_id: second.sid });
  expect(completed.status).toBe("completed");
  const table = await capTable(alice.client, companyId);
  expect(table).toEqual({ [alice.name]: 800, [bob.name]: 150, [carol.name]: 50 });
  expect(Object.values(table).reduce((a, b) => a + b, 0)).toBe(1000);

  step("the recipient is a shareholder now");
  expect(await rolesOf(carol.client, companyId)).toMatchObject({ [carol.name]: ["shareholder"] });
  const seen = await carol.client.callOk("shareholderservice.list_transfers", { company_id: companyId });
  expect(seen.items.map((x) => [x.sid, x.status])).toEqual([
    [second.sid, "completed"],
    [first.sid, "rejected"],
  ]);

  step("units in an open offer cannot be offered twice");
  const third = await offer(dan, 100);
  const over = await bob.client.call("shareholderservice.initiate_transfer", {
    company_id: companyId,
    from_resident_id: bob.residentId,
    to_resident_id: dan.residentId,
    units: 51,
  });
  expect("error" in over && over.error.data?.variant).toBe("InsufficientShares");

  step("the giver withdraws a third offer: cancelled");
  const cancelled = await bob.client.callOk("shareholderservice.cancel_transfer", { transfer_id: third.sid });
  expect(cancelled.status).toBe("cancelled");
  const tooLate = await dan.client.call("shareholderservice.approve_transfer", {
    transfer_id: third.sid,
    to_signature: signHash(dan.keys, third.transfer_hash),
  });
  expect("error" in tooLate && tooLate.error.data?.variant).toBe("InvalidState");
  const open = await alice.client.callOk("shareholderservice.list_transfers", {
    company_id: companyId,
    status: "cancelled",
  });
  expect(open.items.map((x) => x.sid)).toEqual([third.sid]);
  expect(await capTable(bob.client, companyId)).toEqual(table);

  expect(done).toEqual([...STEPS]);
});
