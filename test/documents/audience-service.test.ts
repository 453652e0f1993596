import { beforeAll, describe, expect, test } from "vitest";
import type { BusinessDocumentResult } from "../../generated/types.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertProxy, insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";
import { refusedFor, UNKNOWN_DOCUMENT, upload } from "./support.ts";

/* DocumentAudienceService: can_view (no audit row) and list_by_document (newest first, superseded rows included). */

let t: TestApp;
let company: string;
let owner: Client;
let director: { client: Client; resident: string };
let holder: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let doc: BusinessDocumentResult;
let refused: ReturnType<typeof refusedFor>;

beforeAll(async () => {
  t = await startFinanceApp();
  owner = await t.register("baud-owner@example.org");
  company = await insertCompany(t, owner.userId);
  const other = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
  holder = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  doc = await upload(t, director.client, company, director.resident);
  refused = refusedFor(t, "DocumentAudienceError");
});

const canView = (c: Client, subject_id: string, document_ref: string) =>
  c.call("documentaudienceservice.can_view", { subject_id, document_ref });
const canViewOk = (c: Client, subject_id: string, document_ref: string) =>
  c.callOk("documentaudienceservice.can_view", { subject_id, document_ref });

describe("documentaudienceservice.can_view", () => {
  test("the subject's owner asks: view by a role overlap, with the rows that decided it; no audit row", async () => {
    const audits = await count(t, "user_audit_log");
    const [role] = await sql(t, `select sid from "company_role" where subject_id = ?`, [holder.resident]);
    const [aud] = await sql(t, `select sid from "document_audience" where document_ref = ?`, [doc.sid]);
    expect(await canViewOk(holder.client, holder.resident, doc.sid)).toEqual({
      subject_id: holder.resident,
      document_ref: doc.sid,
      can_view: true,
      reason: "role_overlap",
      company_id: company,
      audience_sid: aud.sid,
      role_sid: role.sid,
      evaluated_at: t.clock.now().toISOString(),
    });
    expect(await count(t, "user_audit_log")).toBe(audits);
  });

  test("a director of the document's company may ask about any subject, and the owner (founder) too", async () => {
    const blind = await person(t, company, "shareholder", { classification_scope: ["public"] });
    expect(await canViewOk(director.client, blind.resident, doc.sid)).toMatchObject({
      can_view: false,
      reason: "no_matching_role",
      company_id: company,
      role_sid: null,
    });
    expect((await canViewOk(owner, holder.resident, doc.sid)).can_view).toBe(true);
  });

  test("a resident acted for through an effective Proxy may be asked about", async () => {
    const agent = await member(t);
    await insertProxy(t, agent.resident, holder.resident);
    expect((await canViewOk(agent.client, holder.resident, doc.sid)).can_view).toBe(true);
  });

  test("a shareholder asking about someone else, and an outsider, get NotFound; no audit row", async () => {
    const audits = await count(t, "user_audit_log");
    await refused(() => canView(holder.client, director.resident, doc.sid), -32003, "NotFound");
    await refused(() => canView(outsider.client, holder.resident, doc.sid), -32003, "NotFound");
    expect(await count(t, "user_audit_log")).toBe(audits);
  });

  test("no audience row: false for the subject's owner, NotFound for anyone else", async () => {
    expect(await canViewOk(holder.client, holder.resident, UNKNOWN_DOCUMENT)).toMatchObject({
      can_view: false,
      reason: "no_audience_row",
      company_id: null,
      audience_sid: null,
      role_sid: null,
    });
    await refused(() => canView(director.client, holder.resident, UNKNOWN_DOCUMENT), -32003, "NotFound");
  });

  test("blank ids are InvalidInput", async () => {
    await refused(() => canView(holder.client, " ", doc.sid), -32006, "InvalidInput");
    await refused(() => canView(holder.client, holder.resident, ""), -32006, "InvalidInput");
  });

  test("after a deletion closes the window: past holders keep view, a later joiner gains none", async () => {
    const gone = await upload(t, director.client, company, director.resident);
    t.clock.advance(30);
    await director.client.callOk("businessdocumentservice.delete_document", { document_id: gone.sid });
    t.clock.advance(30);
    const joiner = await person(t, company, "shareholder", { valid_from: t.clock.now() });
    expect(await canViewOk(joiner.client, joiner.resident, gone.sid)).toMatchObject({
      can_view: false,
      reason: "no_matching_role",
    });
    expect((await canViewOk(holder.client, holder.resident, gone.sid)).can_view).toBe(true);
  });

  test("a corporate holder's owner may ask about the company", async () => {
    const parentOwner = await t.register("baud-parent@example.org");
    const parent = await insertCompany(t, parentOwner.userId);
    await insertRole(t, company, parent, "shareholder");
    expect((await canViewOk(parentOwner, parent, doc.sid)).can_view).toBe(true);
  });
});

describe("documentaudienceservice.list_by_document", () => {
  test("a director lists every row, newest first, superseded rows included", async () => {
    const d = await upload(t, director.client, company, director.resident);
    t.clock.advance(5);
    await director.client.callOk("businessdocumentservice.delete_document", { document_id: d.sid });
    const r = await director.client.callOk("documentaudienceservice.list_by_document", { document_ref: d.sid });
    expect(r.items).toHaveLength(2);
    const [closed, live] = r.items;
    expect(closed).toMatchObject({
      document_ref: d.sid,
      document_type: "business_document",
      company_id: company,
      supersedes: live?.sid,
      document_relevant_to: t.clock.now().toISOString(),
      audience_computation: "business_document_deleted",
      created_by: director.client.userId,
    });
    expect(live).toMatchObject({ supersedes: null, document_relevant_to: null });
    expect(live?.document_relevant_from).toBe(d.created_at);
  });

  test("the owner (founder by ownership) may list", async () => {
    const r = await owner.callOk("documentaudienceservice.list_by_document", { document_ref: doc.sid });
    expect(r.items.map((a) => a.document_ref)).toEqual([doc.sid]);
  });

  // The dispatcher's company rule (x-target, issue 27): a member short of the director role is Forbidden.
  test("a shareholder is Forbidden; an outsider and an unknown document get NotFound", async () => {
    await refused(
      () => holder.client.call("documentaudienceservice.list_by_document", { document_ref: doc.sid }),
      -32002,
      "Forbidden",
    );
    for (const [c, ref] of [
      [outsider.client, doc.sid],
      [director.client, UNKNOWN_DOCUMENT],
    ] as const) {
      await refused(
        () => c.call("documentaudienceservice.list_by_document", { document_ref: ref }),
        -32003,
        "NotFound",
      );
    }
  });

  test("a former director gets NotFound (the role is checked now)", async () => {
    const former = await person(t, company, "director", { valid_to: new Date(t.clock.now().getTime() - 1000) });
    await refused(
      () => former.client.call("documentaudienceservice.list_by_document", { document_ref: doc.sid }),
      -32003,
      "NotFound",
    );
  });
});
