/**
 * Ready-made toolsets (issue 19): lists of tool-name globs for an agent key's `allowed_tool_patterns`, per domain
 * and per common job, so an agent sees tens of tools instead of the whole catalogue. A key may combine several
 * (`toolsetPatterns`). Plain data: the web console's key form offers them. Every pattern matches at least one
 * tool an API key may call (test/mcp/discovery-toolsets.pure.test.ts).
 */
export interface Toolset {
  name: string;
  description: string;
  patterns: string[];
}

export const TOOLSETS: Toolset[] = [
  {
    name: "invoicing",
    description: "Issue, send and track a company's invoices, payment-instruction defaults, and paying an invoice.",
    patterns: [
      "freezone_invoiceservice_*",
      "freezone_paymentservice_initiate_invoice_payment",
      "freezone_paymentservice_connect_payment_receiving",
      "freezone_companyservice_list",
    ],
  },
  {
    name: "expenses",
    description: "Record, submit, approve and reject a company's expenses.",
    patterns: ["freezone_expenseservice_*", "freezone_companyservice_list"],
  },
  {
    name: "company-formation",
    description: "Form a company or cooperative through a draft signed by its founders, with prices and contracts.",
    patterns: [
      "freezone_entitydraftservice_*",
      "freezone_pricingservice_*",
      "freezone_companyservice_create",
      "freezone_companyservice_get",
      "freezone_companyservice_list",
      "freezone_contractservice_get_required_contract*",
    ],
  },
  {
    name: "verification",
    description: "Identity checks of residents (KYC), business checks of outside companies (KYB), verification links.",
    patterns: [
      "freezone_kycservice_*",
      "freezone_kybservice_*",
      "freezone_verificationservice_*",
      "freezone_registrationservice_check_kyc_complete",
    ],
  },
  {
    name: "governance",
    description: "Proposals and votes, resolutions, directors and signing authority, discipline steps, company roles.",
    patterns: ["freezone_governanceservice_*", "freezone_companyroleservice_*"],
  },
  {
    name: "shareholding",
    description: "Shareholder invitations, share transfers and dividends.",
    patterns: ["freezone_shareholderservice_*", "freezone_companyroleservice_list_by_company"],
  },
  {
    name: "treasury",
    description: "Treasury accounts of residents and companies, transfers between them and out, currency exchange.",
    patterns: ["freezone_treasuryservice_*", "freezone_treasuryoperationsservice_*"],
  },
  {
    name: "tax-and-reports",
    description: "Tax filings, deadlines and documents; balance sheet, income statement, cash flow, trial balance.",
    patterns: ["freezone_taxservice_*", "freezone_reportservice_*"],
  },
  {
    name: "credits-and-payments",
    description: "The credit wallet and top-ups, residency and company renewals, payments and the price list.",
    patterns: ["freezone_creditservice_*", "freezone_paymentservice_*", "freezone_pricingservice_*"],
  },
  {
    name: "residency",
    description: "The caller's residents: profile, card, subscription, anonymity and registration progress.",
    patterns: [
      "freezone_residentservice_*",
      "freezone_registrationservice_*",
      "freezone_paymentservice_initiate_renewal",
      "freezone_paymentservice_get_subscription_status",
    ],
  },
  {
    name: "documents-and-signatures",
    description: "Business documents and their audience, contracts, signatures, keypairs and key history.",
    patterns: [
      "freezone_businessdocumentservice_*",
      "freezone_documentservice_*",
      "freezone_documentaudienceservice_*",
      "freezone_contractservice_*",
      "freezone_keypairservice_*",
      "freezone_publickeyhistoryservice_*",
    ],
  },
  {
    name: "messages",
    description: "The caller's inbox and company inboxes: read, mark, post and delete messages.",
    patterns: ["freezone_messageservice_*"],
  },
  {
    name: "agent-oversight",
    description: "What agents did and wait for: pending approvals, the MCP call log, the caller's keys.",
    patterns: ["freezone_mcpapprovalservice_*", "freezone_mcpcalllogservice_*", "freezone_apikeyservice_list_personal"],
  },
];

/** The `allowed_tool_patterns` value of one or more toolsets (each pattern once); unknown names are an error. */
export function toolsetPatterns(names: string[]): string {
  const patterns = new Set<string>();
  for (const name of names) {
    const set = TOOLSETS.find((s) => s.name === name);
    if (!set) throw new Error(`no toolset named ${name}`);
    for (const p of set.patterns) patterns.add(p);
  }
  return [...patterns].join(",");
}
