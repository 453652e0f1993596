import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../../support/app.ts";
import { listFor, targetCast } from "../../support/audit-targets.ts";
import { person } from "../../support/entities.ts";
import { insertRow } from "../../support/rows.ts";

// userauditlogservice.list_for_target for the governance target types of issue 17: `governance_action`,
// `share_transfer` and `signing_authority`, each by its sid. The company's owner and its current directors and
// founders see the rows, and so do the owners of the residents the row is about (the disciplined member, both
// transfer parties, the authority's holder); other shareholders, past directors and strangers get NotFound.

let t: TestApp;
let admin: Client;
let owner: Client;
let companyId: string;
let director: Client;
let founder: Client;
let shareholder: Client;
let pastDirector: Client;
let stranger: Client;
beforeAll(async () => {
  ({ t, admin, owner, companyId, director, founder, shareholder, pastDirector, stranger } =
    await targetCast("gov-target"));
});

async function logRow(ref: string, type: "governance_action" | "share_transfer" | "signing_authority") {
  await admin.callOk("userauditlogservice.log", {
    subject_id: admin.userId,
    action: "other",
    target_ref: ref,
    target_type: type,
    allowed: true,
    context: "{}",
  });
}

async function expectOwners(ref: string, type: string, allowed: Client[], refused: Client[]) {
  for (const c of allowed) expect(await listFor(c, ref), c.email).toEqual([["other", type]]);
  for (const c of refused) expect(await listFor(c, ref), c.email).toBe(-32003);
}

const orm = () => t.app.runtime.orm;

describe("audit targets of governance records", () => {
  test("governance_action: the company's owners and the disciplined member", async () => {
    const member = await person(t, companyId, "founding_member");
    const row = await insertRow(orm(), "GovernanceAction", {
      company_id: companyId,
      subject_resident_id: member.resident,
      kind: "notice",
      parent_action_sid: null,
      content: "Late dues",
      due_by: new Date("2026-12-01T00:00:00.000Z"),
      created_by: "FZ-2026-RA000001",
    });
    const sid = String(row["sid"]);
    await logRow(sid, "governance_action");
    await expectOwners(
      sid,
      "governance_action",
      [owner, director, founder, member.client],
      [shareholder, pastDirector, stranger],
    );
  });

  test("share_transfer: the company's owners and both parties", async () => {
    const from = await person(t, companyId, "shareholder");
    const to = await person(t, null, null);
    const row = await insertRow(orm(), "ShareTransfer", {
      company_id: companyId,
      from_resident_id: from.resident,
      to_resident_id: to.resident,
      units: 5,
      reason: "sale",
      status: "pending",
      transfer_hash: "ab".repeat(32),
    });
    const sid = String(row["sid"]);
    await logRow(sid, "share_transfer");
    await expectOwners(
      sid,
      "share_transfer",
      [owner, director, founder, from.client, to.client],
      [shareholder, pastDirector, stranger],
    );
  });

  test("signing_authority: the company's owners and the holder", async () => {
    const holder = await person(t, companyId, "director");
    const row = await insertRow(orm(), "SigningAuthority", {
      company_id: companyId,
      resident_id: holder.resident,
      status: "active",
      valid_from: new Date("2026-01-01T00:00:00.000Z"),
      valid_to: null,
      granted_by: holder.resident,
      revoked_by: null,
    });
    const sid = String(row["sid"]);
    await logRow(sid, "signing_authority");
    await expectOwners(sid, "signing_authority", [owner, director, founder, holder.client], [shareholder, stranger]);
  });

  test("an unknown sid of each type has no owner: NotFound for everyone", async () => {
    for (const type of ["governance_action", "share_transfer", "signing_authority"] as const) {
      await logRow("00000000-0000-7000-8000-000000000000", type);
    }
    expect(await listFor(owner, "00000000-0000-7000-8000-000000000000")).toBe(-32003);
  });
});
