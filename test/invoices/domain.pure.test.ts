import { describe, expect, test } from "vitest";
import { instructionLines, REDACTED_ANSWER, renderInvoicePdf } from "../../src/documents/invoice-pdf.ts";
import {
  formatInvoiceNumber,
  invoiceFilename,
  invoiceTotals,
  markPaidDecision,
  moveRefusal,
  recipientName,
  sealInstructions,
} from "../../src/domain/invoices.ts";
import { pdfText } from "./support.ts";

const line = (quantity: number, unit_price: number, amount: number, tax_rate: number | null = null) => ({
  description: "x",
  quantity,
  unit_price,
  amount,
  tax_rate,
});

describe("invoiceTotals", () => {
  test("sums in exact cents: ten lines of 0.10 are 1.00, 0.1 + 0.2 is 0.30", () => {
    expect(
      invoiceTotals({ line_items: Array(10).fill(line(1, 0.1, 0.1)), amount: null, tax_amount: null }),
    ).toMatchObject({
      amount: 1,
      tax_amount: 0,
    });
    expect(
      invoiceTotals({ line_items: [line(1, 0.1, 0.1), line(1, 0.2, 0.2)], amount: 0.3, tax_amount: null }),
    ).toMatchObject({ amount: 0.3 });
  });

  test("line amounts round half to even: 2.5 cents -> 2, 7.5 cents -> 8; per-line tax rounds the same way", () => {
    expect(invoiceTotals({ line_items: [line(0.5, 0.05, 0.02)], amount: null, tax_amount: null })).toMatchObject({
      amount: 0.02,
    });
    expect(invoiceTotals({ line_items: [line(1.5, 0.05, 0.08)], amount: null, tax_amount: null })).toMatchObject({
      amount: 0.08,
    });
    // 0.25 x 0.1 = 2.5 cents of tax -> 2 cents; 0.35 x 0.1 = 3.5 -> 4
    expect(
      invoiceTotals({
        line_items: [line(1, 0.25, 0.25, 0.1), line(1, 0.35, 0.35, 0.1)],
        amount: null,
        tax_amount: null,
      }),
    ).toMatchObject({ amount: 0.6, tax_amount: 0.06 });
  });

  test("refusals name the field", () => {
    const r = invoiceTotals({ line_items: [line(2, 1, 2.01)], amount: null, tax_amount: null });
    expect(r).toMatchObject({ refusal: "InvalidAmount", details: { field: "line_items[0].amount" } });
    expect(invoiceTotals({ line_items: [], amount: null, tax_amount: null })).toMatchObject({
      refusal: "InvalidAmount",
      details: { field: "amount" },
    });
    expect(invoiceTotals({ line_items: [line(1, 1, 1, -0.1)], amount: null, tax_amount: null })).toMatchObject({
      refusal: "InvalidInput",
    });
  });
});

describe("states", () => {
  test("mark paid only from sent or overdue; the fields it sets", () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    for (const s of ["draft", "paid", "cancelled", "final"] as const) {
      expect(markPaidDecision(s, "manual", null, now)).toMatchObject({ refusal: "InvalidState" });
    }
    expect(markPaidDecision("overdue", " card ", "  ", now)).toEqual({
      payment_method: "card",
      payment_reference: null,
      paid_at: now,
    });
    expect(moveRefusal("sent", "send")).toMatchObject({ refusal: "InvalidState" });
    expect(moveRefusal("draft", "send")).toBeNull();
  });
});

describe("names, numbers, sealing, escaping", () => {
  test("recipient name order with blanks skipped, dash last", () => {
    expect(recipientName({ companyName: " ", residentName: null, userName: "U", email: "e" })).toBe("U");
    expect(recipientName({ companyName: null, residentName: null, userName: null, email: null })).toBe("-");
  });

  test("numbers and file names", () => {
    expect(formatInvoiceNumber(42)).toBe("INV-000042");
    expect(invoiceFilename("A/B 1")).toBe("invoice-A_B_1.pdf");
  });

  test("sealInstructions seals a given answer and drops a blank one", () => {
    const pi = {
      method: null,
      bank_name: null,
      account_name: null,
      account_number: null,
      iban: null,
      swift: null,
      reference: null,
      notes: null,
      security_question: "q",
      security_answer: "a",
    };
    expect(sealInstructions(pi, (s) => `sealed(${s})`).security_answer).toBe("sealed(a)");
    expect(sealInstructions({ ...pi, security_answer: " " }, (s) => s).security_answer).toBeNull();
    expect(instructionLines({ ...pi, security_answer: "a" })).toEqual([
      "Security question: q",
      `Security answer: ${REDACTED_ANSWER}`,
    ]);
  });

  test("the PDF carries the header, lines and totals as text", async () => {
    const pdf = await renderInvoicePdf({
      invoiceNumber: "INV-000007",
      issuerName: "Acme FZC",
      issuerRegistrationNumber: "REG-1",
      logoUrl: "https://logo.example/a.png",
      recipientName: "Client Ltd",
      description: "Work",
      currency: "EUR",
      issueDate: new Date("2026-11-01T00:00:00.000Z"),
      dueDate: new Date("2026-11-30T00:00:00.000Z"),
      lineItems: [line(2, 10, 20, 0.2)],
      amount: 20,
      taxAmount: 4,
      totalAmount: 24,
      paymentInstructions: null,
    });
    const text = await pdfText(pdf);
    for (const s of ["Acme FZC", "Logo: https://logo.example/a.png", "Invoice INV-000007", "Bill to: Client Ltd"]) {
      expect(text).toContain(s);
    }
    expect(text).toContain("Total due: 24.00 EUR");
    expect(text).not.toContain("Payment instructions");
  });
});
