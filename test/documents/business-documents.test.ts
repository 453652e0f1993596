import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import {
  insertCompany,
  insertProxy,
  insertResident,
  insertRole,
  member,
  person,
  startFinanceApp,
} from "../support/entities.ts";
import { COMPANY_MEMBERS, count, oneAudience, sql } from "../support/helpers.ts";
import { documentWrites, FILE, refusedFor, UNKNOWN_DOCUMENT, upload } from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let owner: Client;
let director: { client: Client; resident: string };
let holder: { client: Client; resident: string };
let outsider: { client: Client; resident: string };
let refused: ReturnType<typeof refusedFor>;

beforeAll(async () => {
  t = await startFinanceApp();
  owner = await t.register("bdoc-owner@example.org");
  company = await insertCompany(t, owner.userId, { name: "Acme Trading FZC", registration_number: "REG-ACME" });
  other = await insertCompany(t, owner.userId);
  director = await member(t, { first_name: "Grace", last_name: "Hopper" });
  await insertRole(t, company, director.resident, "director");
  holder = await person(t, company, "shareholder");
  outsider = await person(t, other, "director");
  refused = refusedFor(t);
});

/** A company of `status` where the director above holds the director role. */
async function companyIn(status: string): Promise<string> {
  const id = await insertCompany(t, owner.userId, { status });
  await insertRole(t, id, director.resident, "director");
  return id;
}

const uploadParams = (extra: Record<string, unknown> = {}) => ({
  company_id: company,
  document_type: "other" as const,
  name: "Minutes",
  file_url: FILE,
  uploaded_by: director.resident,
  ...extra,
});

describe("businessdocumentservice.upload_document", () => {
  test("a director uploads a document with its DocumentAudience row (shareholder tier)", async () => {
    const doc = await upload(t, director.client, company, director.resident, {
      name: " Board minutes ",
      description: " Q1 ",
      document_type: "resolution",
    });
    const now = t.clock.now().toISOString();
    expect(doc).toMatchObject({
      company_id: company,
      document_type: "resolution",
      name: "Board minutes",
      description: "Q1",
      file_url: FILE,
      is_official: false,
      issued_date: null,
      expiry_date: null,
      uploaded_by: director.resident,
      created_at: now,
    });
    expect([...doc.classification].sort()).toEqual(COMPANY_MEMBERS);
    const aud = await oneAudience(t, doc.sid);
    expect(aud).toMatchObject({
      document_type: "business_document",
      company_id: company,
      audience_computation: "business_document_uploaded_shareholder_tier",
      document_relevant_to: null,
      supersedes: null,
      created_by: director.client.userId,
    });
    expect(new Date(aud.document_relevant_from).toISOString()).toBe(now);
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
  });

  test("uploaded_by may be a resident the director acts for through an effective Proxy", async () => {
    const principal = await insertResident(t, null);
    await insertProxy(t, director.resident, principal);
    const doc = await upload(t, director.client, company, principal);
    expect(doc.uploaded_by).toBe(principal);
  });

  test("refusals by role: a shareholder is Forbidden, another company's director NotFound; nothing written", async () => {
    await refused(
      () =>
        holder.client.call("businessdocumentservice.upload_document", uploadParams({ uploaded_by: holder.resident })),
      -32002,
      "Forbidden",
    );
    await refused(
      () =>
        outsider.client.call(
          "businessdocumentservice.upload_document",
          uploadParams({ uploaded_by: outsider.resident }),
        ),
      -32003,
      "NotFound",
    );
  });

  test("uploaded_by naming a resident the caller neither owns nor acts for is NotOwner; nothing written", async () => {
    await refused(
      () =>
        director.client.call("businessdocumentservice.upload_document", uploadParams({ uploaded_by: holder.resident })),
      -32002,
      "NotOwner",
    );
    const stranger = await insertResident(t, null);
    await insertProxy(t, director.resident, stranger, { status: "revoked" });
    await refused(
      () => director.client.call("businessdocumentservice.upload_document", uploadParams({ uploaded_by: stranger })),
      -32002,
      "NotOwner",
    );
  });

  test.each([
    ["http://files.example.org/a.pdf"],
    ["https://127.0.0.1/a.pdf"],
    ["https://localhost/a.pdf"],
    ["https://10.0.0.8/a.pdf"],
    ["https://192.168.0.10/a.pdf"],
    ["https://169.254.169.254/latest/meta-data"],
    ["https://[::1]/a.pdf"],
    ["https://[fd00::5]/a.pdf"],
    ["not a url"],
  ])("a file_url %s is InvalidInput; nothing written", async (file_url) => {
    await refused(
      () => director.client.call("businessdocumentservice.upload_document", uploadParams({ file_url })),
      -32006,
      "InvalidInput",
    );
  });

  test("a blank name and the zone-issued types are InvalidInput; nothing written", async () => {
    await refused(
      () => director.client.call("businessdocumentservice.upload_document", uploadParams({ name: "  " })),
      -32006,
      "InvalidInput",
    );
    for (const document_type of ["certificate_of_incorporation", "business_license"] as const) {
      await refused(
        () => director.client.call("businessdocumentservice.upload_document", uploadParams({ document_type })),
        -32006,
        "InvalidInput",
      );
    }
  });

  test("voided, suspended and inactive companies refuse uploads (InvalidState); nothing written", async () => {
    for (const status of ["voided", "suspended", "inactive"]) {
      const id = await companyIn(status);
      await refused(
        () => director.client.call("businessdocumentservice.upload_document", uploadParams({ company_id: id })),
        -32005,
        "InvalidState",
      );
    }
  });
});

describe("businessdocumentservice.generate_official_document", () => {
  test("a certificate of incorporation is rendered from the registry and the officers at the instant", async () => {
    const former = await member(t, { first_name: "Former", last_name: "Boss" });
    await insertRole(t, company, former.resident, "director", { valid_to: new Date("2026-06-01T00:00:00.000Z") });
    const masked = await member(t, {
      first_name: "Hidden",
      last_name: "Person",
      anonymity_enabled: true,
      external_id: "FZX-ANONDIRECT",
    });
    await insertRole(t, company, masked.resident, "director");
    t.clock.advance(1);
    const doc = await director.client.callOk("businessdocumentservice.generate_official_document", {
      company_id: company,
      document_type: "certificate_of_incorporation",
    });
    const now = t.clock.now().toISOString();
    expect(doc).toMatchObject({
      company_id: company,
      document_type: "certificate_of_incorporation",
      name: "Certificate of Incorporation: Acme Trading FZC",
      file_url: null,
      is_official: true,
      issued_date: now,
      uploaded_by: null,
    });
    const [row] = await sql(t, `select content from "business_document" where sid = ?`, [doc.sid]);
    for (const text of ["# Certificate of Incorporation", company, "Acme Trading FZC", "REG-ACME", "Grace Hopper"]) {
      expect(row.content).toContain(text);
    }
    expect(row.content).not.toContain("Former Boss");
    expect(row.content).toContain("- FZX-ANONDIRECT");
    expect(row.content).not.toContain("Hidden");
    const aud = await oneAudience(t, doc.sid);
    expect(aud.audience_computation).toBe("business_document_official_shareholder_tier");
    expect([...aud.classification].sort()).toEqual(COMPANY_MEMBERS);
    const read = await holder.client.callOk("businessdocumentservice.get_document", { document_id: doc.sid });
    expect(read.content).toBe(row.content);
  });

  test("memorandum and articles are issued too", async () => {
    for (const document_type of ["memorandum", "articles"] as const) {
      t.clock.advance(1);
      const doc = await director.client.callOk("businessdocumentservice.generate_official_document", {
        company_id: company,
        document_type,
      });
      expect(doc).toMatchObject({ document_type, is_official: true });
    }
  });

  test("a business licence only for a company with a licence in force; it expires with the licence", async () => {
    await refused(
      () =>
        director.client.call("businessdocumentservice.generate_official_document", {
          company_id: company,
          document_type: "business_license",
        }),
      -32005,
      "InvalidState",
    );
    const license = {
      license_number: "LIC-9",
      license_type: "trading",
      issued_at: "2026-02-01T00:00:00.000Z",
      expires_at: "2027-02-01T00:00:00.000Z",
      granted_by: "admin@example.org",
    };
    const licensed = await insertCompany(t, owner.userId, { license });
    await insertRole(t, licensed, director.resident, "director");
    const doc = await director.client.callOk("businessdocumentservice.generate_official_document", {
      company_id: licensed,
      document_type: "business_license",
    });
    expect(doc).toMatchObject({ is_official: true, expiry_date: "2027-02-01T00:00:00.000Z" });
    const expired = await insertCompany(t, owner.userId, {
      license: { ...license, expires_at: "2026-03-01T00:00:00.000Z" },
    });
    await insertRole(t, expired, director.resident, "director");
    await refused(
      () =>
        director.client.call("businessdocumentservice.generate_official_document", {
          company_id: expired,
          document_type: "business_license",
        }),
      -32005,
      "InvalidState",
    );
  });

  test("refusals: resolution/other (InvalidInput), a shareholder (Forbidden), an outsider (NotFound), an inactive company (InvalidState)", async () => {
    for (const document_type of ["resolution", "other"] as const) {
      await refused(
        () =>
          director.client.call("businessdocumentservice.generate_official_document", {
            company_id: company,
            document_type,
          }),
        -32006,
        "InvalidInput",
      );
    }
    const params = { company_id: company, document_type: "certificate_of_incorporation" as const };
    await refused(
      () => holder.client.call("businessdocumentservice.generate_official_document", params),
      -32002,
      "Forbidden",
    );
    await refused(
      () => outsider.client.call("businessdocumentservice.generate_official_document", params),
      -32003,
      "NotFound",
    );
    for (const status of ["voided", "suspended", "inactive"]) {
      const id = await companyIn(status);
      await refused(
        () => director.client.call("businessdocumentservice.generate_official_document", { ...params, company_id: id }),
        -32005,
        "InvalidState",
      );
    }
  });

  test("an administrator may issue one (AdminAction recorded)", async () => {
    const admin = await t.admin();
    const before = await count(t, "admin_action", "action = 'generate_official_document'");
    const doc = await admin.callOk("businessdocumentservice.generate_official_document", {
      company_id: company,
      document_type: "certificate_of_incorporation",
    });
    expect(doc.is_official).toBe(true);
    expect(await count(t, "admin_action", "action = 'generate_official_document'")).toBe(before + 1);
  });
});

describe("businessdocumentservice.delete_document", () => {
  test("a director deletes an upload: the row goes and a superseding row closes its audience", async () => {
    const doc = await upload(t, director.client, company, director.resident);
    const live = await oneAudience(t, doc.sid);
    t.clock.advance(5);
    expect(await director.client.callOk("businessdocumentservice.delete_document", { document_id: doc.sid })).toEqual({
      sid: doc.sid,
      deleted: true,
    });
    expect(await count(t, "business_document", "sid = ?", [doc.sid])).toBe(0);
    const rows = await sql(t, `select * from "document_audience" where document_ref = ? order by sid desc`, [doc.sid]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ supersedes: live.sid, audience_computation: "business_document_deleted" });
    expect(new Date(rows[0].document_relevant_to).toISOString()).toBe(t.clock.now().toISOString());
    await refused(
      () => director.client.call("businessdocumentservice.get_document", { document_id: doc.sid }),
      -32003,
      "NotFound",
    );
  });

  test("the company's owner (founder by ownership) may delete", async () => {
    const doc = await upload(t, director.client, company, director.resident);
    expect((await owner.callOk("businessdocumentservice.delete_document", { document_id: doc.sid })).deleted).toBe(
      true,
    );
  });

  test("an official document is never deleted (RuleViolated OfficialDocument); nothing written", async () => {
    const doc = await director.client.callOk("businessdocumentservice.generate_official_document", {
      company_id: company,
      document_type: "articles",
    });
    await refused(
      () => director.client.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32006,
      "OfficialDocument",
    );
    await refused(
      () => owner.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32006,
      "OfficialDocument",
    );
  });

  // The dispatcher's company rule (x-target, issue 27): a member without the director role is Forbidden whether or
  // not its classification scope shows the document; outsiders and unknown ids are NotFound.
  test("a shareholder is Forbidden, seeing the document or not; outsiders and unknown ids NotFound", async () => {
    const doc = await upload(t, director.client, company, director.resident);
    const blind = await person(t, company, "shareholder", { classification_scope: ["public"] });
    await refused(
      () => holder.client.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32002,
      "Forbidden",
    );
    await refused(
      () => blind.client.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32002,
      "Forbidden",
    );
    await refused(
      () => outsider.client.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32003,
      "NotFound",
    );
    await refused(
      () => director.client.call("businessdocumentservice.delete_document", { document_id: UNKNOWN_DOCUMENT }),
      -32003,
      "NotFound",
    );
  });

  test("a document of a company suspended since is not deleted (InvalidState); nothing written", async () => {
    const id = await companyIn("active");
    const doc = await upload(t, director.client, id, director.resident);
    await sql(t, `update "zone_company" set status = 'suspended' where company_id = ?`, [id]);
    await refused(
      () => director.client.call("businessdocumentservice.delete_document", { document_id: doc.sid }),
      -32005,
      "InvalidState",
    );
    expect(await documentWrites(t)().then((w) => w.documents.some((d) => d.sid === doc.sid))).toBe(true);
  });
});
