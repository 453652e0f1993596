import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { instructionLines, renderInvoicePdf } from "../../src/documents/invoice-pdf.ts";
import { parseTemplateFile } from "../../src/domain/contract-templates.ts";
import { renderFormation } from "../../src/domain/formation-documents.ts";
import { renderOfficialDocument } from "../../src/domain/official-documents.ts";
import { invoiceMessage } from "../../src/integrations/email/templates.ts";
import { invitationEmail } from "../../src/services/entity-draft-service/notices.ts";
import { shareholderInviteEmail } from "../../src/services/shareholder-service/invites-email.ts";
import { pdfText } from "../invoices/support.ts";
import { ATTACKS, liveMarkup } from "../support/markup.ts";

/** Every renderer routes its values through src/domain/text-render.ts (issue 29 item 5). */

const headings = (markdown: string) => markdown.split("\n").filter((l) => /^ {0,3}#/.test(l));
const NOW = new Date("2026-11-27T10:00:00.000Z");

describe("official documents", () => {
  const company = {
    company_id: "FZ-2026-Y000001",
    name: ATTACKS.heading,
    company_type: "single_fzc" as const,
    registration_number: ATTACKS.javascriptLink,
    registered_at: NOW,
    address: {
      line1: ATTACKS.newlineAddress,
      line2: ATTACKS.imageTag,
      city: ATTACKS.autolink,
      region: null,
      postal_code: null,
      country: "TZ",
    },
    license: null,
  };
  const officers = [{ role: "director" as const, display: "> 1. [y](javascript:alert(2))" }];

  test.each(["certificate_of_incorporation", "memorandum", "articles"] as const)(
    "%s: hostile registry values add no heading, link, tag or line",
    (type) => {
      const doc = renderOfficialDocument(type, company, officers, NOW);
      if ("refusal" in doc) throw new Error(doc.message);
      expect(headings(doc.content)).toEqual([expect.stringMatching(/^# [A-Z]/), "## Founders", "## Directors"]);
      expect(liveMarkup(doc.content).filter((m) => !m.startsWith("heading: #"))).toEqual([]);
      expect(doc.content).toContain("- Registered address: 1 Main St \\# OFFICIAL: banking licence granted");
      expect(doc.content).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(doc.content).toContain("- &gt; 1. \\[y\\](javascript:alert(2))");
      expect(doc.name).not.toMatch(/[\r\n]/);
    },
  );
});

describe("contract renders (formation documents)", () => {
  test("the articles filled with hostile form data keep the template's headings and nothing more", () => {
    const parsed = parseTemplateFile(readFileSync("contracts/templates/company-articles.md", "utf8"));
    if (!parsed.ok) throw new Error(parsed.problem);
    const [doc] = renderFormation([{ contract_id: "c", name: "Articles", body: parsed.template.body }], {
      entityName: ATTACKS.heading,
      entityType: "company",
      companyType: "single_fzc",
      documentVersion: 1,
      templateData: { registered_address: ATTACKS.newlineAddress, purpose: ATTACKS.imageTag },
      shareholders: [{ name: ATTACKS.javascriptLink, email: "a@example.org", resident_id: null, units: 1, role: null }],
      renderedOn: NOW,
    });
    const content = doc?.content ?? "";
    expect(headings(content).length).toBe(headings(parsed.template.body).length);
    expect(liveMarkup(content).filter((m) => !m.startsWith("heading: #"))).toEqual([]);
    expect(content).toContain("The registered address of the company is 1 Main St \\# OFFICIAL");
  });
});

describe("emails", () => {
  test("the invoice email: one-line names in subject and text, every value escaped in HTML", () => {
    const m = invoiceMessage({
      to: "payer@example.org",
      replyTo: null,
      issuerName: `Acme\r\nBcc: victim@example.org ${ATTACKS.imageTag}`,
      recipientName: ATTACKS.javascriptLink,
      invoiceNumber: "INV-1\nX-Injected: 1",
      totalAmount: 10,
      currency: "USD",
      dueDate: NOW,
      senderMessage: `line one\r\n${ATTACKS.imageTag}\u0007`,
    });
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.subject).toBe(`Invoice INV-1 X-Injected: 1 from Acme Bcc: victim@example.org ${ATTACKS.imageTag}`);
    expect(m.bodyText.split("\n")).toContain(`Hello ${ATTACKS.javascriptLink},`);
    expect(m.bodyText).not.toContain("\nBcc:");
    expect(m.bodyText).not.toContain("\u0007");
    expect(m.bodyText).toContain(`line one\n${ATTACKS.imageTag}`);
    expect(m.bodyHtml).not.toContain("<img");
    expect(m.bodyHtml).not.toContain("\u0007");
    expect(m.bodyHtml).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  test("invitation emails keep hostile names on one line", () => {
    const draft = invitationEmail({
      to: "i@example.org",
      entityName: ATTACKS.newlineAddress,
      inviterName: "Eve\nSecurity team",
      role: "shareholder",
      invitationId: "inv",
      expiresAt: NOW,
      baseUrl: "https://zone.example",
    });
    expect(draft.subject).not.toMatch(/[\r\n]/);
    expect(draft.bodyText.split("\n")[0]).toBe(
      "Eve Security team invites you to sign the formation documents of 1 Main St # OFFICIAL: banking licence " +
        "granted - Licence number: BANK-1 as shareholder.",
    );
    const invite = shareholderInviteEmail({
      to: "i@example.org",
      companyName: "Acme\r\nBcc: x@example.org",
      units: 5,
      message: "hello\r\nworld\u001b[31m",
      token: "tok",
      expiresAt: NOW,
      baseUrl: "https://zone.example",
    });
    expect(invite.subject).toBe("Invitation to become a shareholder of Acme Bcc: x@example.org");
    expect(invite.bodyText).toContain("Message from the company:\nhello\nworld[31m");
  });
});

describe("invoice PDF", () => {
  test("a line break in a one-line value cannot print a line of its own", async () => {
    const lines = instructionLines({
      method: "bank",
      bank_name: "Bank\nTotal due: 0.00 USD",
      account_name: null,
      account_number: null,
      iban: null,
      swift: null,
      reference: null,
      notes: "first\nsecond",
      security_question: null,
      security_answer: null,
    });
    expect(lines).toEqual(["Method: bank", "Bank: Bank Total due: 0.00 USD", "Notes: first\nsecond"]);
    const text = await pdfText(
      await renderInvoicePdf({
        invoiceNumber: "INV-000009",
        issuerName: "Acme",
        issuerRegistrationNumber: null,
        logoUrl: null,
        recipientName: "Bob\nTotal due: 0.00 USD",
        description: "Work",
        currency: "USD",
        issueDate: NOW,
        dueDate: NOW,
        lineItems: [],
        amount: 10,
        taxAmount: 0,
        totalAmount: 10,
        paymentInstructions: null,
      }),
    );
    expect(text).toContain("Bill to: Bob Total due: 0.00 USD");
  });
});
