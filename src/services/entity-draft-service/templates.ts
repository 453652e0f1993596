import type { EntityDraftType } from "../../../generated/types.ts";
import type { FormationTemplate } from "../../domain/formation-documents.ts";

/**
 * The company-formation templates a draft is rendered from. `{{key}}` placeholders: entity_name, entity_type,
 * company_type, founder_resident_id, document_version, shareholders and every template_data key.
 */
const ARTICLES: FormationTemplate = {
  contract_id: "company_formation",
  name: "Articles of association",
  body: [
    "ARTICLES OF ASSOCIATION OF {{entity_name}}",
    "",
    "Form: {{company_type}} ({{entity_type}}). Founder: {{founder_resident_id}}. Version {{document_version}}.",
    "Purpose: {{purpose}}",
    "Registered address: {{registered_address}}",
    "Industry: {{industry}}",
    "Share capital: {{share_capital}} USD in {{total_shares}} shares.",
    "",
    "Shareholders:",
    "{{shareholders}}",
  ].join("\n"),
};

const BYLAWS: FormationTemplate = {
  contract_id: "company_formation",
  name: "Cooperative bylaws",
  body: [
    "BYLAWS OF THE COOPERATIVE {{entity_name}}",
    "",
    "Form: {{company_type}}. Founder: {{founder_resident_id}}. Version {{document_version}}.",
    "Purpose: {{purpose}}",
    "Registered address: {{registered_address}}",
    "Industry: {{industry}}; activities: {{activities}}",
    "Membership fee: {{membership_fee}} USD; open membership: {{open_membership}}.",
    "Each member has one vote.",
    "",
    "Founding members:",
    "{{shareholders}}",
  ].join("\n"),
};

export function formationTemplates(entityType: EntityDraftType): FormationTemplate[] {
  return [entityType === "cooperative" ? BYLAWS : ARTICLES];
}
