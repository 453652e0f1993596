import { beforeAll, describe, expect, test } from "vitest";
import type { BusinessDocumentResult } from "../../generated/types.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, insertProxy, insertRole, member, person, startFinanceApp } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { refusedFor, UNKNOWN_DOCUMENT, upload, viewAudits } from "./support.ts";

/*
 * Reads under the DocumentAudience rule: get_document (audited view_document), list_documents, and what past holders,
 * later joiners, scopes, proxies and corporate holders see.
 */

let t: TestApp;
let company: string;
let owner: Client;
let director: { client: Client; resident: string };
let holder: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let refused: ReturnType<typeof refusedFor>;

const MINUTE = 60;
const at = (offsetSeconds: number) => new Date(t.clock.now().getTime() + offsetSeconds * 1000);

beforeAll(async () => {
  t = await startFinanceApp();
  owner = await t.register("bvis-owner@example.org");
  company = await insertCompany(t, owner.userId);
  const other = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
  holder = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  refused = refusedFor(t);
});

/** A superseding audience row closing the document's window at `end` (what a deletion or a change appends). */
async function closeWindow(documentRef: string, end: Date): Promise<void> {
  const [live] = await sql(t, `select * from "document_audience" where document_ref = ? order by sid desc limit 1`, [
    documentRef,
  ]);
  await insertRow(t.app.runtime.orm, "DocumentAudience", {
    ...live,
    sid: uuidv7(end),
    document_relevant_to: end,
    supersedes: live.sid,
    audience_computation: "test_close",
  });
}

const get = (c: Client, document_id: string) => c.call("businessdocumentservice.get_document", { document_id });
const list = (c: Client, extra: Record<string, unknown> = {}) =>
  c.callOk("businessdocumentservice.list_documents", { company_id: company, ...extra });

describe("businessdocumentservice.get_document", () => {
  let doc: BusinessDocumentResult;
  beforeAll(async () => {
    doc = await upload(t, director.client, company, director.resident);
  });

  test("a shareholder reads it; the read is audited view_document, allowed", async () => {
    const read = await holder.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid });
    expect(read).toMatchObject({ sid: doc.sid, name: "Minutes", content: null, is_official: false });
    expect(read.classification).toEqual(doc.classification);
    const audits = await viewAudits(t, doc.sid);
    expect(audits.at(-1)).toMatchObject({
      subject_id: holder.client.userId,
      allowed: true,
      target_type: "business_document",
      // The decision the read was allowed by (issue 29 item 18): the audience row and the role that matched.
      context: {
        visibility: "role_overlap",
        audience_id: expect.any(String),
        matched_role_id: expect.any(String),
        matched_subject_id: holder.resident,
      },
    });
  });

  test("the uploader's own read is audited too", async () => {
    const before = (await viewAudits(t, doc.sid)).length;
    await director.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid });
    const audits = await viewAudits(t, doc.sid);
    expect(audits).toHaveLength(before + 1);
    expect(audits.at(-1)).toMatchObject({ subject_id: director.client.userId, allowed: true });
  });

  test("another company's director gets NotFound, and the denial is audited (allowed false); nothing else written", async () => {
    const before = (await viewAudits(t, doc.sid)).length;
    await refused(() => get(outsider.client, doc.sid), -32003, "NotFound");
    const audits = await viewAudits(t, doc.sid);
    expect(audits).toHaveLength(before + 1);
    expect(audits.at(-1)).toMatchObject({
      subject_id: outsider.client.userId,
      allowed: false,
      context: { visibility: "no_matching_role", matched_role_id: null },
    });
  });

  test("an unknown document is NotFound, audited as a denial", async () => {
    await refused(() => get(holder.client, UNKNOWN_DOCUMENT), -32003, "NotFound");
    expect(await viewAudits(t, UNKNOWN_DOCUMENT)).toMatchObject([
      { allowed: false, context: { visibility: "no_document" } },
    ]);
  });

  test("a member whose classification scope does not intersect gets NotFound", async () => {
    const blind = await person(t, company, "shareholder", { classification_scope: ["public"] });
    await refused(() => get(blind.client, doc.sid), -32003, "NotFound");
  });

  test("the company's owner without a role of its own gets NotFound (ownership is no audience tier)", async () => {
    await refused(() => get(owner, doc.sid), -32003, "NotFound");
  });

  test("a past holder keeps view: the role ended after the document became relevant", async () => {
    const past = await person(t, company, "shareholder", { valid_to: at(MINUTE) });
    t.clock.advance(2 * MINUTE);
    expect((await past.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid })).sid).toBe(
      doc.sid,
    );
  });

  test("a holder whose role ended before the document became relevant has no view", async () => {
    const gone = await person(t, company, "shareholder", { valid_to: at(-10 * MINUTE) });
    await refused(() => get(gone.client, doc.sid), -32003, "NotFound");
  });

  test("a joiner of a live document gains view (its window is still open)", async () => {
    t.clock.advance(MINUTE);
    const joiner = await person(t, company, "shareholder", { valid_from: t.clock.now() });
    expect((await joiner.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid })).sid).toBe(
      doc.sid,
    );
  });

  test("a user holding an effective Proxy for a shareholder reads as that shareholder; a revoked one does not", async () => {
    const agent = await member(t);
    await insertProxy(t, agent.resident, holder.resident);
    expect((await agent.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid })).sid).toBe(
      doc.sid,
    );
    const former = await member(t);
    await insertProxy(t, former.resident, holder.resident, { status: "revoked" });
    await refused(() => get(former.client, doc.sid), -32003, "NotFound");
  });

  test("the owner of a corporate shareholder reads as that company", async () => {
    const parentOwner = await t.register("bvis-parent@example.org");
    const parent = await insertCompany(t, parentOwner.userId);
    await insertRole(t, company, parent, "shareholder");
    expect((await parentOwner.callOk("businessdocumentservice.get_document", { document_id: doc.sid })).sid).toBe(
      doc.sid,
    );
  });

  test("an administrator's session reads any document (audited)", async () => {
    const admin = await t.admin();
    expect((await admin.callOk("businessdocumentservice.get_document", { document_id: doc.sid })).sid).toBe(doc.sid);
    expect((await viewAudits(t, doc.sid)).at(-1)).toMatchObject({ subject_id: admin.userId, allowed: true });
  });

  test("a document with no audience row is seen by nobody", async () => {
    const bare = await insertRow(t.app.runtime.orm, "BusinessDocument", {
      company_id: company,
      document_type: "other",
      name: "No audience",
      file_url: "https://files.example.org/x.pdf",
      uploaded_by: director.resident,
    });
    await refused(() => get(director.client, String(bare["sid"])), -32003, "NotFound");
  });
});

describe("businessdocumentservice.list_documents", () => {
  let listed: string;
  let a: BusinessDocumentResult;
  let b: BusinessDocumentResult;
  let cert: BusinessDocumentResult;

  beforeAll(async () => {
    listed = await insertCompany(t, owner.userId);
    await insertRole(t, listed, director.resident, "director");
    await insertRole(t, listed, holder.resident, "shareholder");
    a = await upload(t, director.client, listed, director.resident, { name: "A" });
    b = await upload(t, director.client, listed, director.resident, { name: "B", document_type: "resolution" });
    t.clock.advance(1);
    cert = await director.client.callOk("businessdocumentservice.generate_official_document", {
      company_id: listed,
      document_type: "certificate_of_incorporation",
    });
  });
  const listIn = (c: Client, extra: Record<string, unknown> = {}) => list(c, { company_id: listed, ...extra });

  test("a member sees the company's documents newest first, without content and without audit rows", async () => {
    const audits = await count(t, "user_audit_log");
    const r = await listIn(holder.client);
    expect(r.items.map((d) => d.sid)).toEqual([cert.sid, b.sid, a.sid]);
    expect(r.items[0]).not.toHaveProperty("content");
    expect(await count(t, "user_audit_log")).toBe(audits);
  });

  test("the type filter keeps one type", async () => {
    expect((await listIn(holder.client, { document_type: "resolution" })).items.map((d) => d.sid)).toEqual([b.sid]);
  });

  test("a member whose scope does not intersect sees none; a later joiner of a closed window does not see it", async () => {
    const blind = await member(t);
    await insertRole(t, listed, blind.resident, "shareholder", { classification_scope: ["public"] });
    expect((await listIn(blind.client)).items).toEqual([]);
    await closeWindow(a.sid, at(1));
    t.clock.advance(10);
    const joiner = await member(t);
    await insertRole(t, listed, joiner.resident, "shareholder", { valid_from: t.clock.now() });
    expect((await listIn(joiner.client)).items.map((d) => d.sid)).toEqual([cert.sid, b.sid]);
    expect((await listIn(holder.client)).items.map((d) => d.sid)).toEqual([cert.sid, b.sid, a.sid]);
  });

  test("outsiders get NotFound; nothing written", async () => {
    await refused(
      () => outsider.client.call("businessdocumentservice.list_documents", { company_id: listed }),
      -32003,
      "NotFound",
    );
  });

  test("an administrator's session lists every document", async () => {
    const admin = await t.admin();
    const r = await admin.callOk("businessdocumentservice.list_documents", { company_id: listed });
    expect(r.items.map((d) => d.sid)).toEqual([cert.sid, b.sid, a.sid]);
  });

  test("other companies' documents never appear", async () => {
    const r = await list(holder.client);
    expect(r.items.every((d) => d.company_id === company)).toBe(true);
    expect(r.items.some((d) => d.sid === a.sid)).toBe(false);
  });
});
