import type PDFKit from "pdfkit";
import type { InvoicePaymentInstructions, LineItem } from "../../generated/types.ts";
import { singleLine as one, textBlock } from "../domain/text-render.ts";

/**
 * The invoice PDF attached to the invoice email (pdfkit, built-in Helvetica: no font files, no network). Header:
 * the issuer's name, registration number and logo reference (the URL is printed, never fetched: a server-side fetch
 * of a user-given URL would be a request forgery path); then parties, line items, totals and the payment
 * instructions with the security answer redacted. The document's dates are the invoice's issue date, so the same
 * invoice renders the same way for a preview and a send. PDF text has no markup, but a line break in a value starts
 * a new printed line (a name could print a fake "Total due" line): one-line values go through `singleLine`, the
 * description and notes through `textBlock` (src/domain/text-render.ts).
 */

export interface InvoicePdfInput {
  invoiceNumber: string;
  issuerName: string;
  issuerRegistrationNumber: string | null;
  logoUrl: string | null;
  recipientName: string;
  description: string;
  currency: string;
  issueDate: Date;
  dueDate: Date;
  lineItems: readonly LineItem[];
  amount: number;
  taxAmount: number;
  totalAmount: number;
  /** Already redacted (security_answer null) by the caller; the answer is printed as a placeholder only. */
  paymentInstructions: InvoicePaymentInstructions | null;
}

/** Printed in place of a security answer: the payer gets it out of band. */
export const REDACTED_ANSWER = "[provided separately]";

const day = (d: Date) => d.toISOString().slice(0, 10);
const money = (n: number) => n.toFixed(2);

/** The instruction lines that have a value, labelled; the security answer never appears. */
export function instructionLines(pi: InvoicePaymentInstructions): string[] {
  const labelled: [string, string | null][] = [
    ["Method", pi.method],
    ["Bank", pi.bank_name],
    ["Account name", pi.account_name],
    ["Account number", pi.account_number],
    ["IBAN", pi.iban],
    ["SWIFT", pi.swift],
    ["Reference", pi.reference],
    ["Notes", pi.notes],
    ["Security question", pi.security_question],
  ];
  const lines = labelled
    .map(([k, v]): [string, string] => [k, v === null ? "" : k === "Notes" ? textBlock(v) : one(v)])
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => `${k}: ${v}`);
  if (pi.security_question) lines.push(`Security answer: ${REDACTED_ANSWER}`);
  return lines;
}

/**
 * pdfkit (with fontkit and its fonts) costs ~0.2-0.3 s of CPU to load: loaded on the first invoice, not at start
 * (cold start, issue 18); the module stays cached afterwards.
 */
let pdfkit: Promise<typeof PDFKit> | null = null;

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  pdfkit ??= import("pdfkit").then((module) => module.default);
  const PDFDocument = await pdfkit;
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: {
      Title: `Invoice ${one(input.invoiceNumber)}`,
      Author: one(input.issuerName),
      CreationDate: input.issueDate,
      ModDate: input.issueDate,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const currency = one(input.currency);
  doc.font("Helvetica-Bold").fontSize(18).text(one(input.issuerName));
  doc.font("Helvetica").fontSize(9);
  if (input.issuerRegistrationNumber) doc.text(`Registration number: ${one(input.issuerRegistrationNumber)}`);
  if (input.logoUrl) doc.text(`Logo: ${one(input.logoUrl)}`);
  doc.moveDown();
  doc
    .font("Helvetica-Bold")
    .fontSize(14)
    .text(`Invoice ${one(input.invoiceNumber)}`);
  doc.font("Helvetica").fontSize(10);
  doc.text(`Issue date: ${day(input.issueDate)}`);
  doc.text(`Due date: ${day(input.dueDate)}`);
  doc.text(`Bill to: ${one(input.recipientName)}`);
  doc.moveDown();
  doc.text(textBlock(input.description));
  doc.moveDown();

  if (input.lineItems.length > 0) {
    doc.font("Helvetica-Bold").text("Items");
    doc.font("Helvetica");
    for (const line of input.lineItems) {
      const tax = line.tax_rate === null ? "" : ` (tax ${(line.tax_rate * 100).toFixed(2)}%)`;
      doc.text(
        `${one(line.description)}: ${line.quantity} x ${money(line.unit_price)} = ${money(line.amount)} ${currency}${tax}`,
      );
    }
    doc.moveDown();
  }
  doc.text(`Subtotal: ${money(input.amount)} ${currency}`);
  doc.text(`Tax: ${money(input.taxAmount)} ${currency}`);
  doc.font("Helvetica-Bold").text(`Total due: ${money(input.totalAmount)} ${currency}`);
  doc.font("Helvetica");

  if (input.paymentInstructions) {
    doc.moveDown();
    doc.font("Helvetica-Bold").text("Payment instructions");
    doc.font("Helvetica");
    for (const line of instructionLines(input.paymentInstructions)) doc.text(line);
  }
  doc.end();
  return done;
}
