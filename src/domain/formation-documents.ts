import type { RenderedDocument, ShareholderData } from "../../generated/types.ts";
import { renderTemplate, sha256Hex, type TemplateValue } from "./contract-render.ts";

/**
 * Formation documents: the registration contract templates of category company_formation (src/contracts/templates.ts)
 * filled with a draft's data (src/domain/contract-render.ts),
 * each with the SHA-256 of its text, and the signing hash an invitee signs. Pure: the templates come in as values.
 */

/** A template as the renderer needs it. */
export interface FormationTemplate {
  contract_id: string;
  name: string;
  body: string;
}

/** A rendered document as stored in EntityDraft.rendered_documents (the version it was rendered for added). */
export interface StoredDocument {
  contract_id: string;
  name: string;
  content: string;
  document_version: number;
}

/** What a formation document is filled with. */
export interface FormationFacts {
  entityName: string;
  entityType: string;
  companyType: string;
  documentVersion: number;
  templateData: Record<string, unknown>;
  shareholders: ShareholderData[];
  /** The day the documents are rendered (formation_date). */
  renderedOn: Date;
}

const text = (value: unknown): string => (typeof value === "string" || typeof value === "number" ? String(value) : "");

/**
 * The values of the formation templates' placeholders (contracts/templates: company_articles, cooperative_charter):
 * the entity, the form's registered_address and purpose (business_activity), the day, and the cap table as a table.
 */
export function formationValues(facts: FormationFacts): Record<string, TemplateValue> {
  const cooperative = facts.entityType === "cooperative";
  const rows = facts.shareholders.map((s) =>
    cooperative ? [s.name, s.email, s.role ?? "founding_member"] : [s.name, s.email, s.role ?? "shareholder", s.units],
  );
  const table = {
    columns: cooperative ? ["Name", "Email", "Role"] : ["Name", "Email", "Role", "Units"],
    rows,
  };
  return {
    entity_name: facts.entityName,
    company_type: facts.companyType,
    registered_address: text(facts.templateData["registered_address"]),
    business_activity: text(facts.templateData["purpose"]),
    formation_date: facts.renderedOn.toISOString().slice(0, 10),
    shareholders_table: table,
    founding_members_table: table,
  };
}

export function renderFormation(templates: FormationTemplate[], facts: FormationFacts): StoredDocument[] {
  const values = formationValues(facts);
  return templates.map((t) => ({
    contract_id: t.contract_id,
    name: t.name,
    content: renderTemplate(t.body, values).text,
    document_version: facts.documentVersion,
  }));
}

/** The documents of one version, with their hashes, in stored order. */
export function documentsOf(stored: StoredDocument[], version: number): RenderedDocument[] {
  return stored
    .filter((d) => d.document_version === version)
    .map((d) => ({ contract_id: d.contract_id, name: d.name, content: d.content, content_hash: sha256Hex(d.content) }));
}

/** What an invitee signs: SHA-256 of the documents' content hashes joined by newlines, in order. */
export function signingHash(documents: RenderedDocument[]): string {
  return sha256Hex(documents.map((d) => d.content_hash).join("\n"));
}

/**
 * The stored documents after rendering `fresh` for a new version: earlier versions are kept only when invitations
 * were sent for them (`invitedVersions`), so an invitee can still read what they were asked to sign.
 */
export function keepDocuments(
  stored: StoredDocument[],
  fresh: StoredDocument[],
  invitedVersions: Set<number>,
): StoredDocument[] {
  return [...stored.filter((d) => invitedVersions.has(d.document_version)), ...fresh];
}

/** The stored JSON text back as documents (malformed text reads as none). */
export function parseStoredDocuments(text: string): StoredDocument[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as StoredDocument[]) : [];
  } catch {
    return [];
  }
}
