import { createHash } from "node:crypto";
import type { RenderedDocument, ShareholderData } from "../../generated/types.ts";

/**
 * Formation documents: the registration contract templates of category company_formation filled with a draft's data,
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
  creatorDrId: string;
  documentVersion: number;
  templateData: Record<string, unknown>;
  shareholders: ShareholderData[];
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

const display = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};

/** The placeholders a template may use: the facts and every template_data key. */
export function formationValues(facts: FormationFacts): Record<string, string> {
  const members = facts.shareholders
    .map((s) => `- ${s.name} <${s.email}>: ${s.role ?? "shareholder"}${s.units > 0 ? `, ${s.units} units` : ""}`)
    .join("\n");
  const data = Object.fromEntries(Object.entries(facts.templateData).map(([k, v]) => [k, display(v)]));
  return {
    ...data,
    entity_name: facts.entityName,
    entity_type: facts.entityType,
    company_type: facts.companyType,
    founder_resident_id: facts.creatorDrId,
    document_version: String(facts.documentVersion),
    shareholders: members,
  };
}

/** `{{key}}` replaced by its value; an unknown key renders empty. */
export function fillTemplate(body: string, values: Record<string, string>): string {
  return body.replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/gi, (_, key: string) => values[key] ?? "");
}

export function renderFormation(templates: FormationTemplate[], facts: FormationFacts): StoredDocument[] {
  const values = formationValues(facts);
  return templates.map((t) => ({
    contract_id: t.contract_id,
    name: t.name,
    content: fillTemplate(t.body, values),
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
