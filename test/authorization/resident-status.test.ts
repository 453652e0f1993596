import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { companyData, founder, registrationWrites } from "../company-service/support.ts";
import { coopParams, draftTables, people } from "../entity-drafts/support.ts";
import {
  governanceWrites,
  proposeOk,
  type StandardCompany,
  standardCompany,
  vote,
} from "../governance/proposals/support.ts";
import { DATA as INVOICE } from "../invoices/support.ts";
import { newKeypair } from "../signatures/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertRole, member, startFinanceApp } from "../support/entities.ts";
import { count, refusedNoWrite, sql } from "../support/helpers.ts";

/**
 * The resident status gate (docs/decisions.md "Resident status", issue 27): only an active resident acts. A
 * suspended, expired or pending resident keeps reading, but every write that acts as it, or through a company
 * role it holds, answers InvalidState before the handler runs and writes nothing. The reproductions of issue 27:
 * a suspended shareholder voted, proposed and transferred shares; a suspended user formed a company, drafted one,
 * stored a keypair; an expired one proposed, voted and posted company messages.
 */

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
});
afterAll(() => t.close());

const STATE = { code: -32005 };
const GOV = { type: "GovernanceError", variant: "InvalidState" };

async function suspend(resident: string): Promise<void> {
  await admin.callOk("residentservice.suspend", { resident_id: resident, reason: "issue 27 test" });
}

async function reinstate(resident: string): Promise<void> {
  await admin.callOk("residentservice.reinstate", { resident_id: resident, reason: "issue 27 test" });
}

describe("a suspended resident", () => {
  let c: StandardCompany;
  let proposal: string;

  beforeAll(async () => {
    c = await standardCompany(t);
    // A paid period ahead, so that a reinstatement puts the resident back to active (statusFromDates).
    await sql(
      t,
      `update digital_resident set subscription_start_date = ?, subscription_end_date = ? where resident_id = ?`,
      [new Date("2026-01-01T00:00:00Z"), new Date("2027-12-31T00:00:00Z"), c.a.resident],
    );
    proposal = (await proposeOk(c.director.client, c.company)).sid;
    await suspend(c.a.resident);
    await suspend(c.director.resident);
  });

  test("casts no vote (InvalidState, details.status suspended) and the tallies stay", async () => {
    const before = await governanceWrites(t);
    const r = await vote(c.a.client, proposal, c.a.resident, "for");
    expect(r).toMatchObject({ error: { code: -32005, data: { ...GOV, status: "suspended" } } });
    expect(await governanceWrites(t)).toEqual(before);
  });

  test("opens no proposal", async () => {
    await refusedNoWrite(
      () => governanceWrites(t),
      () =>
        c.a.client.call("governanceservice.create_proposal", {
          company_id: c.company,
          title: "A plan",
          description: "Adopt it.",
          category: "strategic",
          kind: "ordinary",
          voting_days: 7,
          allow_abstention: false,
        }),
      STATE.code,
      GOV,
    );
  });

  test("transfers no shares", async () => {
    const transfers = () => count(t, "share_transfer");
    await refusedNoWrite(
      transfers,
      () =>
        c.a.client.call("shareholderservice.initiate_transfer", {
          company_id: c.company,
          from_resident_id: c.a.resident,
          to_resident_id: c.b.resident,
          units: 10,
        }),
      STATE.code,
      { type: "ShareholderError", variant: "InvalidState" },
    );
  });

  test("a suspended director posts no company message and issues no invoice", async () => {
    const messages = () => count(t, "company_message");
    await refusedNoWrite(
      messages,
      () =>
        c.director.client.call("messageservice.create_company_message", {
          company_id: c.company,
          title: "Hello",
          body: "Members",
        }),
      STATE.code,
      { type: "MessageError", variant: "InvalidState" },
    );
    await refusedNoWrite(
      () => count(t, "zone_invoice"),
      () =>
        c.director.client.call("invoiceservice.create", {
          fzc_id: c.company,
          data: INVOICE,
        }),
      STATE.code,
      { type: "InvoiceError", variant: "InvalidState" },
    );
  });

  test("still reads: the proposal and its company's proposals", async () => {
    expect(await c.a.client.call("governanceservice.get_proposal", { proposal_id: proposal })).toHaveProperty("result");
    const list = await c.a.client.call("governanceservice.list_proposals", { company_id: c.company });
    expect(list).toHaveProperty("result");
  });

  test("issues no person-to-person invoice as a resident", async () => {
    await refusedNoWrite(
      () => count(t, "zone_invoice"),
      () =>
        c.a.client.call("invoiceservice.create", {
          fzc_id: c.a.resident,
          data: INVOICE,
        }),
      STATE.code,
      { type: "InvoiceError", variant: "InvalidState" },
    );
  });

  test("votes again once reinstated", async () => {
    await reinstate(c.a.resident);
    const r = await vote(c.a.client, proposal, c.a.resident, "for");
    expect(r).toHaveProperty("result");
  });
});

describe("a suspended user's own resident", () => {
  test("forms no company, drafts none, stores no keypair", async () => {
    const f = await founder(t, admin, 5_000);
    const [other] = await people(t, 1);
    await suspend(f.resident);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => f.client.call("companyservice.create", { data: companyData(f.resident) }),
      STATE.code,
      { type: "CompanyError", variant: "InvalidState" },
    );
    await refusedNoWrite(
      () => draftTables(t),
      () => f.client.call("entitydraftservice.create_draft", coopParams(f, [other!])),
      STATE.code,
      { type: "DraftError", variant: "InvalidState" },
    );
    const kp = newKeypair();
    await refusedNoWrite(
      () => count(t, "public_key_history"),
      () =>
        f.client.call("keypairservice.store_client_keypair", {
          entity_type: "resident",
          entity_id: f.resident,
          public_key: kp.publicKey,
          encrypted_private_key: kp.encrypted,
        }),
      STATE.code,
      { type: "KeypairError", variant: "InvalidState" },
    );
  });
});

describe("an expired resident (its subscription end passed on the clock)", () => {
  test("proposes, votes and posts nothing; a director who is active still does", async () => {
    const c = await standardCompany(t);
    const end = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const expiring = await member(t, { subscription_end_date: end });
    await insertRole(t, c.company, expiring.resident, "director");
    const proposal = (await proposeOk(c.director.client, c.company)).sid;
    t.clock.advance(120);
    await refusedNoWrite(
      () => governanceWrites(t),
      () =>
        expiring.client.call("governanceservice.create_proposal", {
          company_id: c.company,
          title: "Late",
          description: "Too late.",
          category: "strategic",
          kind: "board",
          voting_days: 7,
          allow_abstention: false,
        }),
      STATE.code,
      { ...GOV, status: "expired" } as never,
    );
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(expiring.client, proposal, expiring.resident, "for"),
      STATE.code,
      GOV,
    );
    await refusedNoWrite(
      () => count(t, "company_message"),
      () =>
        expiring.client.call("messageservice.create_company_message", {
          company_id: c.company,
          title: "Hi",
          body: "There",
        }),
      STATE.code,
      { type: "MessageError", variant: "InvalidState" },
    );
    expect(await vote(c.a.client, proposal, c.a.resident, "for")).toHaveProperty("result");
  });
});

describe("the gate never tells a stranger a resident's status", () => {
  test("naming someone else's suspended resident answers what the handler answers a stranger, not InvalidState", async () => {
    const owner = await member(t);
    const stranger = await member(t);
    await suspend(owner.resident);
    const kp = newKeypair();
    const r = await stranger.client.call("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: owner.resident,
      public_key: kp.publicKey,
      encrypted_private_key: kp.encrypted,
    });
    expect(r).toHaveProperty("error");
    expect((r as { error: { code: number } }).error.code).not.toBe(-32005);
  });
});
