import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CompanyRule, companyRoleKinds, companyRule } from "../../codegen/authorization.ts";
import type { MethodEntry } from "../../generated/registry.ts";
import { createRegistry } from "../../src/app/runtime.ts";
import { REPORT_CLASSIFICATION } from "../../src/domain/reports.ts";
import type { RpcContext } from "../../src/rpc/context.ts";
import { sample, sampleParams } from "../identity/sample-params.ts";
import { PASSWORD, type RpcReply, type TestApp } from "../support/app.ts";
import { insertResident } from "../support/entities.ts";
import { insertRow } from "../support/rows.ts";

/**
 * What the authorization tests read: the rows come from the registry (the spec's x-target and x-acts-as, through the
 * same `companyRule` that writes docs/authorization.md), params from the served OpenRPC document, and the target
 * records from one fixture per record kind. Nothing here replaces a live handler.
 */

export type Entry = MethodEntry<RpcContext>;

type Schema = Record<string, any>;

const allDoc = JSON.parse(readFileSync(join(import.meta.dirname, "../../generated/openrpc/all.json"), "utf8")) as {
  methods: { name: string; params: { name: string; schema: Schema }[] }[];
  components: { schemas: Record<string, Schema> };
};

function deref(schema: Schema): Schema {
  let s = schema;
  while (typeof s["$ref"] === "string") s = allDoc.components.schemas[String(s["$ref"].split("/").pop())] ?? {};
  return s;
}

/** sampleParams, with one property in each object param whose schema needs some (`minProperties`). */
export function validSample(entry: Pick<Entry, "name">): Record<string, unknown> {
  const params = sampleParams(entry.name);
  const method = allDoc.methods.find((m) => m.name === entry.name);
  for (const p of method?.params ?? []) {
    const schema = deref(p.schema);
    const value = params[p.name];
    if (!schema["minProperties"] || typeof value !== "object" || value === null || Object.keys(value).length > 0)
      continue;
    const [key, property] = Object.entries((schema["properties"] ?? {}) as Record<string, Schema>)[0] ?? [];
    if (key && property) params[p.name] = { [key]: sample(property, key) };
  }
  return params;
}

/** CompanyRoleKind values, from the served OpenRPC document. */
export const ROLE_KINDS = companyRoleKinds({ schemas: allDoc.components.schemas });

/** Every registry entry once (aliases share their method's entry), sorted by name. */
export function registryEntries(): Entry[] {
  const seen = new Map<string, Entry>();
  for (const entry of createRegistry().values()) seen.set(entry.name, entry);
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export interface Row {
  entry: Entry;
  rule: CompanyRule;
}

/** Every company-scoped method of the registry (x-target with a role), sorted. */
export function companyRows(): Row[] {
  return registryEntries().flatMap((entry) => {
    const rule = companyRule(entry);
    return rule ? [{ entry, rule }] : [];
  });
}

/**
 * Valid params for a call as `resident`: sample values, `target` in the target param, the caller's resident in a
 * resident-bound param and in the x-acts-as param, a user- or partner-bound param left to the server, the password.
 */
export function callParams(entry: Entry, resident: string, target?: string): Record<string, unknown> {
  const params = validSample(entry);
  if (entry.target && target !== undefined) params[entry.target.param] = target;
  const binding = entry.callerBinding;
  if (binding?.kind === "resident") params[binding.param] = resident;
  else if (binding) delete params[binding.param];
  if (entry.actsAs?.param) params[entry.actsAs.param] = resident;
  if (entry.password) params[entry.password] = PASSWORD;
  return params;
}

/** "GovernanceAction" -> "governance action": the label of the dispatcher's NotFound (src/rpc/target.ts). */
function label(record: string): string {
  if (record === "ZoneCompany") return "company";
  return record
    .replace(/^Zone/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/**
 * Which refusal of the dispatcher's target step the reply is (src/rpc/target.ts: its messages), or null when the
 * call got past it (a handler's answer, a result, or a later step's refusal).
 */
export function targetRefusal(
  r: RpcReply,
  entry: Entry,
): "NotFound" | "Forbidden" | "NotOwner" | "InvalidState" | null {
  const e = r.error;
  const t = entry.target;
  if (!e || !t) return null;
  const variant = e.data?.variant;
  if (variant === "NotFound" && (e.message === `${label(t.record)} not found` || e.message === "issuer not found"))
    return "NotFound";
  if (variant === "Forbidden" && e.message.startsWith(`needs the ${t.role} role in `)) return "Forbidden";
  if (variant === "NotOwner" && e.message === `${t.param} names a resident the caller does not own`) return "NotOwner";
  if (variant === "InvalidState" && e.message.startsWith(`the ${t.role} role is held by a resident who may not act`))
    return "InvalidState";
  return null;
}

/** The status gate's refusal (x-acts-as, or the target's role held only by residents who may not act). */
export function isStatusRefusal(r: RpcReply, status: string): boolean {
  const e = r.error;
  return e?.code === -32005 && e.data?.variant === "InvalidState" && e.data?.status === status;
}

/**
 * A record of each kind an x-target names, belonging to `company`, inserted straight: its id as the target param
 * takes it. `by` is a resident of the company (the record's author where it has one). A record kind an x-target
 * names with no entry here fails the tests that list kinds from the registry, naming the kind.
 */
let filingMonths = 0;

export const RECORD_FIXTURES: Record<string, (t: TestApp, company: string, by: string) => Promise<string>> = {
  ZoneCompany: async (_t, company) => company,
  Proposal: async (t, company, by) =>
    sid(
      await insertRow(t.app.runtime.orm, "Proposal", {
        company_id: company,
        title: "Fixture",
        description: "A fixture proposal.",
        category: "governance",
        kind: "ordinary",
        status: "active",
        proposer_id: by,
        voting_starts_at: new Date("2026-10-01T00:00:00.000Z"),
        voting_ends_at: new Date("2026-12-30T00:00:00.000Z"),
        quorum_percentage: 50,
        passing_threshold: 50,
        total_issued_power_snapshot: 100,
        resolution_id: null,
      }),
    ),
  GovernanceAction: async (t, company, by) =>
    sid(
      await insertRow(t.app.runtime.orm, "GovernanceAction", {
        company_id: company,
        subject_resident_id: await insertResident(t, null),
        kind: "notice",
        parent_action_sid: null,
        content: JSON.stringify({ text: "Fixture notice." }),
        due_by: new Date("2026-11-01T00:00:00.000Z"),
        decided_at: null,
        decided_by_role: null,
        decided_by_subject_id: null,
        outcome: null,
        created_by: by,
      }),
    ),
  ShareTransfer: async (t, company) =>
    sid(
      await insertRow(t.app.runtime.orm, "ShareTransfer", {
        company_id: company,
        from_resident_id: await insertResident(t, null),
        to_resident_id: await insertResident(t, null),
        units: 1,
        reason: null,
        status: "pending",
        transfer_hash: "0".repeat(64),
        to_signature: null,
        approved_at: null,
      }),
    ),
  DividendDistribution: async (t, company, by) =>
    sid(
      await insertRow(t.app.runtime.orm, "DividendDistribution", {
        company_id: company,
        total_amount: 1,
        currency: "EUR",
        source_account_id: "no-such-account",
        distribution_date: new Date("2026-11-01T00:00:00.000Z"),
        status: "approved",
        requires_vote: false,
        proposal_id: null,
        initiated_by: by,
        approved_at: new Date("2026-11-01T00:00:00.000Z"),
      }),
    ),
  // document-audience targets are found by document_ref (the param names the document, not the audience row).
  DocumentAudience: async (t, company, by) => {
    const ref = `fixture-document-${Math.random().toString(36).slice(2)}`;
    await insertRow(t.app.runtime.orm, "DocumentAudience", {
      document_ref: ref,
      document_type: "business_document",
      company_id: company,
      classification: [],
      audience_computation: "fixture",
      document_relevant_from: new Date("2026-01-01T00:00:00.000Z"),
      document_relevant_to: null,
      as_of_epoch: new Date("2026-01-01T00:00:00.000Z"),
      supersedes: null,
      created_by: by,
    });
    return ref;
  },
  BusinessDocument: async (t, company, by) =>
    sid(
      await insertRow(t.app.runtime.orm, "BusinessDocument", {
        company_id: company,
        document_type: "other",
        name: "Minutes",
        file_url: "https://files.example.org/minutes.pdf",
        uploaded_by: by,
      }),
    ),
  // get_report reads through the visibility rule (x-visibility): the report's audience row, as the service writes
  // one, open from before any fixture role so every holder of one overlaps it.
  FinancialReport: async (t, company, by) => {
    const report = sid(
      await insertRow(t.app.runtime.orm, "FinancialReport", {
        company_id: company,
        report_type: "balance_sheet",
        title: "Fixture balance sheet",
        period_start: null,
        period_end: null,
        as_of_date: new Date("2026-10-31T00:00:00.000Z"),
        content: JSON.stringify({ assets: [] }),
        generated_by: by,
      }),
    );
    await insertRow(t.app.runtime.orm, "DocumentAudience", {
      document_ref: report,
      document_type: "financial_report",
      company_id: company,
      classification: [...REPORT_CLASSIFICATION],
      audience_computation: "fixture",
      document_relevant_from: new Date("2026-01-01T00:00:00.000Z"),
      document_relevant_to: null,
      as_of_epoch: new Date("2026-01-01T00:00:00.000Z"),
      supersedes: null,
      created_by: by,
    });
    return report;
  },
  // One live filing per company and period: each fixture takes the month before the last one's.
  TaxFiling: async (t, company) => {
    filingMonths += 1;
    const start = new Date(Date.UTC(2026, 9 - filingMonths, 1));
    return sid(
      await insertRow(t.app.runtime.orm, "TaxFiling", {
        company_id: company,
        filing_type: "monthly",
        period_start: start,
        period_end: new Date(Date.UTC(2026, 10 - filingMonths, 0)),
        due_date: new Date("2026-12-31T00:00:00.000Z"),
      }),
    );
  },
  ZoneExpense: async (t, company, by) =>
    sid(
      await insertRow(t.app.runtime.orm, "ZoneExpense", {
        fzc_id: company,
        receipt_number: `R-${Math.random().toString(36).slice(2, 10)}`,
        vendor_name: "Fixture Supplies",
        description: "Paper",
        amount: 12.5,
        currency: "USD",
        category: "office",
        expense_date: new Date("2026-10-15T00:00:00.000Z"),
        submitted_by: by,
      }),
    ),
  ZoneInvoice: async (t, company) =>
    invoice(t, { fzc_id: company, sender_entity_type: "company", sender_entity_id: company }),
  TreasuryAccount: async (t, company) => account(t, "company", company),
  FundTransfer: async (t, company, by) => transfer(t, await account(t, "company", company), by),
};

/**
 * What a target param holds to name `resident` as the issuer (x-target `foreignResident`): the resident itself where
 * the param names the company, or a record of that resident (a personal invoice) where it names a record.
 */
export async function issuedBy(t: TestApp, record: string, resident: string): Promise<string> {
  if (record === "ZoneCompany") return resident;
  if (record === "ZoneInvoice") return invoice(t, { fzc_id: "", sender_entity_type: null, sender_entity_id: resident });
  if (record === "TreasuryAccount") return account(t, "resident", resident);
  if (record === "FundTransfer") return transfer(t, await account(t, "resident", resident), resident);
  throw new Error(`no personal fixture for ${record}: add one to issuedBy`);
}

/** A bank account in EUR of a company or a resident, active, no approval threshold. */
async function account(t: TestApp, ownerType: "company" | "resident", ownerId: string): Promise<string> {
  return sid(
    await insertRow(t.app.runtime.orm, "TreasuryAccount", {
      owner_type: ownerType,
      owner_id: ownerId,
      kind: "bank_account",
      name: `Fixture ${Math.random().toString(36).slice(2, 10)}`,
      currency: "EUR",
    }),
  );
}

/** A pending external transfer of 1 EUR from `from`, initiated by `by`. */
async function transfer(t: TestApp, from: string, by: string): Promise<string> {
  return sid(
    await insertRow(t.app.runtime.orm, "FundTransfer", {
      from_account_id: from,
      to_account_id: null,
      to_external_address: "DE89370400440532013000",
      to_external_name: "Fixture payee",
      amount: 1,
      currency: "EUR",
      reference: null,
      status: "pending",
      requires_approval: true,
      approval_threshold: 0,
      approved_by: null,
      initiated_by: by,
      transaction_id: null,
      fee_amount: null,
      completed_at: null,
      initiated_by_user: null,
      provider_ref: null,
    }),
  );
}

/** An invoice draft from the issuer `sender` names (a company, or person to person a resident). */
async function invoice(t: TestApp, sender: Record<string, unknown>): Promise<string> {
  const n = Math.random().toString(36).slice(2, 10);
  return sid(
    await insertRow(t.app.runtime.orm, "ZoneInvoice", {
      ...sender,
      reseller_invoice_id: `RI-${n}`,
      invoice_number: `INV-${n}`,
      amount: 100,
      currency: "USD",
      description: "Consulting",
      issue_date: new Date("2026-11-01T00:00:00.000Z"),
      due_date: new Date("2026-12-01T00:00:00.000Z"),
      recipient_email: "client@example.org",
      sender_user_id: null,
      recipient_user_id: null,
      payment_instructions: null,
    }),
  );
}

const sid = (row: Record<string, unknown>) => String(row["sid"]);

/** An id of the target's kind that names nothing. */
export function unknownId(record: string): string {
  return record === "ZoneCompany" ? "FZ-2026-Y999999" : "01900000-0000-7000-8000-000000000000";
}

/** The record kinds x-target names with no fixture above (each a test failure naming it). */
export function kindsWithoutFixture(entries: readonly Entry[]): string[] {
  const kinds = new Set(entries.flatMap((e) => (e.target ? [e.target.record] : [])));
  return [...kinds].filter((k) => !RECORD_FIXTURES[k]).sort();
}
