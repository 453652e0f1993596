import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SINGLE_LINE_PATTERN } from "../../src/domain/text-render.ts";
import { balanceOf, companyData, founder, registrationWrites } from "../company-service/support.ts";
import type { Client, TestApp } from "../support/app.ts";
import { startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";
import { ATTACKS, liveMarkup } from "../support/markup.ts";

/**
 * Issue 29 item 5: registry values with markup land escaped in an official document (which is append-only, so what
 * is written stays), and a one-line field with a line break is refused by the validator before anything is written.
 */

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await startFinanceApp();
  admin = await t.admin();
});
afterAll(() => t.close());

const HOSTILE_ADDRESS = {
  line1: ATTACKS.javascriptLink,
  line2: ATTACKS.imageTag,
  city: ATTACKS.autolink,
  region: "> quoted",
  postal_code: "1. 2",
  country: "TZ",
};

describe("official documents hold registry values escaped", () => {
  test("a company named like a heading, with a link, a tag and an autolink in its address", async () => {
    const { client, resident } = await founder(t, admin);
    const company = await client.callOk("companyservice.create", {
      data: companyData(resident, { name: ATTACKS.heading, address: HOSTILE_ADDRESS }),
    });
    const doc = await client.callOk("businessdocumentservice.generate_official_document", {
      company_id: company.company_id,
      document_type: "certificate_of_incorporation",
    });
    const [row] = await sql(t, `select content, name from "business_document" where sid = ?`, [doc.sid]);
    const content: string = row.content;
    expect(content.split("\n").filter((l) => l.startsWith("#"))).toEqual([
      "# Certificate of Incorporation",
      "## Founders",
      "## Directors",
    ]);
    expect(liveMarkup(content).filter((m) => !m.startsWith("heading: #"))).toEqual([]);
    expect(content).toContain("- Name: \\# OFFICIAL: this company holds a banking licence");
    expect(content).toContain(
      "- Registered address: \\[x\\](javascript:alert(1)), &lt;img src=x onerror=alert(1)&gt;, " +
        "&lt;javascript:alert(1)&gt;, &gt; quoted, 1\\. 2, TZ",
    );
    expect(row.name).toBe(`Certificate of Incorporation: ${ATTACKS.heading}`);
    const read = await client.callOk("businessdocumentservice.get_document", { document_id: doc.sid });
    expect(read.content).toBe(content);
  });
});

describe("one-line fields refuse line breaks (-32602, nothing written)", () => {
  test("an address line with a newline, on update and on create", async () => {
    const { client, resident } = await founder(t, admin);
    const company = await client.callOk("companyservice.create", { data: companyData(resident) });
    const companyRow = () => sql(t, `select * from zone_company where company_id = ?`, [company.company_id]);
    const address = { ...HOSTILE_ADDRESS, line1: ATTACKS.newlineAddress };
    await refusedNoWrite(
      companyRow,
      () => client.call("companyservice.update", { company_id: company.company_id, data: { address } }),
      -32602,
      null,
    );
    const before = await balanceOf(t, client.userId);
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data: companyData(resident, { address }) }),
      -32602,
      null,
    );
    await refusedNoWrite(
      () => registrationWrites(t),
      () => client.call("companyservice.create", { data: companyData(resident, { name: "Acme\r\nFZC" }) }),
      -32602,
      null,
    );
    expect(await balanceOf(t, client.userId)).toBe(before);
  });

  test("the refusal names the field and the pattern", async () => {
    const { client, resident } = await founder(t, admin);
    const company = await client.callOk("companyservice.create", { data: companyData(resident) });
    const r = await client.call("companyservice.update", {
      company_id: company.company_id,
      data: { address: { ...HOSTILE_ADDRESS, city: "Stone\u2028Town" } },
    });
    expect("error" in r && r.error).toMatchObject({
      code: -32602,
      data: { errors: [{ path: "/data/address/city", params: { pattern: SINGLE_LINE_PATTERN } }] },
    });
  });
});
