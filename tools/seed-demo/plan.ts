/**
 * The demo zone: who and what `seed-demo` creates. Demo accounts only: the password is printed and published here,
 * so never seed a production instance.
 */
export const DEMO_DOMAIN = "demo.freezone.example";
export const DEMO_PASSWORD = "demo-zone-password-2026";

export interface DemoPerson {
  key: "alice" | "bob" | "carol" | "dave";
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
}

const person = (key: DemoPerson["key"], first: string, last: string, phone: string): DemoPerson => ({
  key,
  email: `${key}@${DEMO_DOMAIN}`,
  first_name: first,
  last_name: last,
  phone,
});

export const PEOPLE: DemoPerson[] = [
  person("alice", "Alice", "Mwangi", "+255 700 100 001"),
  person("bob", "Bob", "Okafor", "+255 700 100 002"),
  person("carol", "Carol", "Haddad", "+255 700 100 003"),
  person("dave", "Dave", "Lindqvist", "+255 700 100 004"),
];

export const SCRIPT_KEY_NAME = "demo script key";
export const AGENT_KEY_NAME = "demo agent key";
/** The agent key needs its owner's approval for any change of a resident record. */
export const AGENT_APPROVAL_PATTERN = "freezone_residentservice_update";

export const COMPANY = {
  entity_type: "company",
  entity_name: "Harbour Software FZC",
  company_type: "startup_fzc",
  template_data: {
    purpose: "Software consulting",
    registered_address: "2 Harbour Road",
    registered_city: "Port Town",
    registered_country: "AE",
    industry: "technology",
    share_capital: 10000,
    total_shares: 1000,
    accept_terms: true,
  },
} as const;

export const COOPERATIVE = {
  entity_type: "cooperative",
  entity_name: "Makers Cooperative",
  company_type: "coop_standard_fzc",
  template_data: {
    purpose: "Shared workshop for makers",
    registered_address: "1 Harbour Road",
    registered_city: "Port Town",
    registered_country: "AE",
    industry: "other",
    membership_fee: 50,
    activities: ["production", "services"],
    open_membership: true,
    accept_terms: true,
  },
} as const;

/** Residents pay one year from their wallet (creditservice.activate_resident), funded by a sandbox top-up. */
export const RESIDENT_PLAN = "1_year";
/** What a resident's wallet is topped up to before activation: the default one-year price and a margin. */
export const RESIDENT_FUNDS = 150;
/** The company and the cooperative are registered on the monthly plan. */
export const COMPANY_PLAN = "monthly";

/** Invoices of the company, by description; `status` is where the demo leaves each. */
export const INVOICES = [
  {
    status: "paid",
    data: {
      description: "Website build, phase 1",
      currency: "USD",
      due_date: "2027-01-15T00:00:00.000Z",
      recipient_email: "accounts@northwind.example",
      line_items: [{ description: "Design and build", quantity: 10, unit_price: 120, amount: 1200, tax_rate: null }],
    },
  },
  {
    status: "sent",
    data: {
      description: "Support retainer, December",
      currency: "USD",
      due_date: "2027-01-31T00:00:00.000Z",
      recipient_email: "accounts@northwind.example",
      line_items: [{ description: "Support hours", quantity: 8, unit_price: 90, amount: 720, tax_rate: null }],
    },
  },
  {
    status: "draft",
    data: {
      description: "Hosting, first quarter",
      currency: "USD",
      due_date: "2027-03-31T00:00:00.000Z",
      recipient_email: "ops@contoso.example",
      line_items: [{ description: "Managed hosting", quantity: 3, unit_price: 45, amount: 135, tax_rate: null }],
    },
  },
] as const;

/** A proposal of the cooperative, left open with the founding members' votes. */
export const PROPOSAL = {
  title: "Buy a shared laser cutter",
  description: "The cooperative buys a laser cutter for the workshop, paid from the membership fees.",
  category: "operational",
  kind: "ordinary",
  voting_days: 14,
  allow_abstention: true,
} as const;
export const VOTES = { carol: "for", dave: "for", alice: "abstain" } as const;
