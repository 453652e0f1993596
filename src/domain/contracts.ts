import type { ContractSignatureRow, RegistrationContractRow } from "../../generated/entities.ts";
import type {
  CompanyType,
  ContractStatus,
  CreateContractData,
  EntityType,
  UpdateContractData,
} from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Company contracts and signatures of registration contracts (docs/decisions.md "Contracts").
 *
 * ContractStatus:
 * | from | to | by |
 * |---|---|---|
 * | (none) | draft | create_company_contract |
 * | draft | pending_signature | update_company_contract (the director sends it for signature) |
 * | draft, pending_signature | active | update_company_contract (signed; a contract signed elsewhere may skip) |
 * | pending_signature, active | expired | its end_date passes: reads show it at once, the sweep stores it |
 * | any but archived | archived | archive_company_contract (archiving an archived contract changes nothing) |
 * A draft never expires (it is still being written); expired and archived contracts take no further update.
 */

/** Every member tier: any current member of the company may list and read its contracts. */
export const CONTRACT_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];
export const CONTRACT_AUDIENCE_RULE = "company_contract_members";

const ORDER: Record<ContractStatus, number> = {
  draft: 0,
  pending_signature: 1,
  active: 2,
  expired: 3,
  archived: 4,
};

/** Statuses the expiry moves from once end_date has passed. */
export const EXPIRING_STATUSES: readonly ContractStatus[] = ["pending_signature", "active"];

/** The status as of `now`: a pending or active contract whose end_date has passed reads `expired`. */
export function effectiveContractStatus(status: ContractStatus, endDate: Date | null, now: Date): ContractStatus {
  if (endDate !== null && endDate <= now && EXPIRING_STATUSES.includes(status)) return "expired";
  return status;
}

function text(value: string, field: string): string | Refusal<"InvalidInput"> {
  const trimmed = value.trim();
  return trimmed === "" ? refuse("InvalidInput", `${field} must not be blank`, { field }) : trimmed;
}

function datesRefusal(start: Date, end: Date | null): Refusal<"InvalidInput"> | null {
  if (end !== null && end < start) {
    return refuse("InvalidInput", "end_date must not be before start_date", { field: "end_date" });
  }
  return null;
}

export interface ContractFields {
  name: string;
  contract_type: string;
  counterparty: string;
  start_date: Date;
  end_date: Date | null;
  total_value: number | null;
}

/** The checked fields of a new contract: texts trimmed and not blank, end not before start. */
export function newContractFields(data: CreateContractData): ContractFields | Refusal<"InvalidInput"> {
  const fields: Partial<Record<"name" | "contract_type" | "counterparty", string>> = {};
  for (const field of ["name", "contract_type", "counterparty"] as const) {
    const value = text(data[field], field);
    if (typeof value !== "string") return value;
    fields[field] = value;
  }
  const start = new Date(data.start_date);
  const end = data.end_date === undefined ? null : new Date(data.end_date);
  const bad = datesRefusal(start, end);
  if (bad) return bad;
  return {
    name: fields.name ?? "",
    contract_type: fields.contract_type ?? "",
    counterparty: fields.counterparty ?? "",
    start_date: start,
    end_date: end,
    total_value: data.total_value ?? null,
  };
}

export type ContractPatch = Partial<ContractFields> & { status?: ContractStatus };

/**
 * The change an update makes to a contract (`status` its stored status, read with `effectiveContractStatus`):
 * refused for an archived or expired contract and for a backward move (InvalidState), for blank texts, an end
 * before the start, or moving to pending_signature or active a contract whose end has passed (InvalidInput).
 */
export function contractUpdate(
  current: Pick<ContractFields, "start_date" | "end_date"> & { status: ContractStatus },
  data: UpdateContractData,
  now: Date,
): ContractPatch | Refusal<"InvalidState" | "InvalidInput"> {
  const status = effectiveContractStatus(current.status, current.end_date, now);
  if (status === "archived" || status === "expired") {
    return refuse("InvalidState", `an ${status} contract cannot be changed`, { status });
  }
  if (data.status !== undefined && ORDER[data.status] < ORDER[status]) {
    return refuse("InvalidState", `status may only move forward (${status} -> ${data.status} refused)`, {
      status,
      requested: data.status,
    });
  }
  const patch: ContractPatch = {};
  for (const field of ["name", "contract_type", "counterparty"] as const) {
    const raw = data[field];
    if (raw === undefined) continue;
    const value = text(raw, field);
    if (typeof value !== "string") return value;
    patch[field] = value;
  }
  if (data.start_date !== undefined) patch.start_date = new Date(data.start_date);
  if (data.end_date !== undefined) patch.end_date = data.end_date === null ? null : new Date(data.end_date);
  if (data.total_value !== undefined) patch.total_value = data.total_value;
  const end = patch.end_date === undefined ? current.end_date : patch.end_date;
  const bad = datesRefusal(patch.start_date ?? current.start_date, end);
  if (bad) return bad;
  if (data.status !== undefined && data.status !== status) {
    if (end !== null && end <= now) {
      return refuse("InvalidInput", `a contract whose end_date has passed cannot become ${data.status}`, {
        field: "end_date",
      });
    }
    patch.status = data.status;
  }
  return patch;
}

// ---- signatures of registration contracts ----

export type SignerType = ContractSignatureRow["entity_type"];
const SIGNER_TYPES: readonly SignerType[] = ["user", "digital_resident", "company"];

export interface SignInput {
  entityType: SignerType;
  entityName: string;
  entityId: string;
}

/** The checked signing params: a known entity_type, a name (trimmed, 1-200), entity_id empty exactly for `user`. */
export function signInput(p: {
  entity_type: string;
  entity_name: string;
  entity_id: string;
}): SignInput | Refusal<"InvalidInput"> {
  if (!SIGNER_TYPES.includes(p.entity_type as SignerType)) {
    return refuse("InvalidInput", "entity_type must be user, digital_resident or company", { field: "entity_type" });
  }
  const entityType = p.entity_type as SignerType;
  const name = p.entity_name.trim();
  if (name === "" || name.length > 200) {
    return refuse("InvalidInput", "entity_name must hold 1 to 200 characters", { field: "entity_name" });
  }
  const id = p.entity_id.trim();
  if ((entityType === "user") !== (id === "")) {
    const why = entityType === "user" ? "must be empty for a user" : `must name the ${entityType.replace("_", " ")}`;
    return refuse("InvalidInput", `entity_id ${why}`, { field: "entity_id" });
  }
  return { entityType, entityName: name, entityId: id };
}

/**
 * Whether the contract may be signed for the entity: a user accepts any offered contract for itself; a resident or a
 * company signs a lifecycle template (required_for empty) or a contract required for its kind, and a company only
 * one that applies to its company type.
 */
export function contractFitsSigner(
  contract: Pick<RegistrationContractRow, "required_for" | "company_types" | "title">,
  signer: SignerType,
  companyType: CompanyType | null,
): Refusal<"InvalidInput"> | null {
  if (signer === "user") return null;
  const kind: EntityType = signer === "company" ? "company" : "resident";
  if (contract.required_for.length > 0 && !contract.required_for.includes(kind)) {
    return refuse("InvalidInput", `${contract.title} is not signed for a ${kind}`, { field: "entity_type" });
  }
  if (companyType !== null && contract.company_types.length > 0 && !contract.company_types.includes(companyType)) {
    return refuse("InvalidInput", `${contract.title} does not apply to a ${companyType} company`, {
      field: "entity_id",
    });
  }
  return null;
}
