export type JsonSchema = { [key: string]: unknown };

export type AuthMode = "anonymous" | "user" | "session" | "admin" | "partner" | "webhook";
export type CrudMode = "none" | "read" | "owner" | "admin";
export type CrudOp = "new" | "get" | "set" | "delete" | "list" | "find";

export interface CallerBinding {
  param: string;
  kind: "user" | "resident" | "partner";
  /** An administrator's session may name another subject (API.md: the audit lists, admin variants). */
  adminMayOverride: boolean;
}

export interface AuditPolicy {
  action: string;
  targetType: string | null;
  targetParam: string | null;
}

/** `x-company` on a record: the field holding the formatted id of the company that owns it. */
export interface CompanyLink {
  field: string;
  /** Where the field is empty, this field names the resident the record belongs to instead (a resident issuer). */
  resident: string | null;
  /** A field saying what `field` names: `company` or `resident` (an EntityType). */
  kind: string | null;
  /** `field` holds the sid of this other record, whose own x-company goes on. */
  through: string | null;
}

/**
 * `x-target`: the record a method acts on, found by `param` (matched against `field`), checked by the dispatcher
 * before the handler: NotFound when absent, the company rule for `role` (NotFound to outsiders, Forbidden short of
 * the role), the company's status when `operable`; a resident instead of a company (`company.resident`) must be the
 * caller's own, else `foreignResident`.
 */
/** `x-visibility`: the document kind, and the param naming one document or the result field listing many. */
export interface Visibility {
  kind: string;
  param: string | null;
  items: string | null;
}

export interface TargetParty {
  field: string;
  kind: "resident" | "user";
}

export interface Target {
  record: string;
  param: string;
  field: string;
  role: string | null;
  operable: boolean;
  /**
   * With `operable`: the CompanyAction the company's status must allow (src/domain/company-status.ts): `operate`
   * (`"operable": true`), or `update_profile` / `renew` (`"operable": "update_profile"`).
   */
  companyAction: "operate" | "update_profile" | "renew";
  foreignResident: "NotOwner" | "NotFound" | null;
  /**
   * Where the target belongs to a resident: an effective proxy holder of that resident passes as its owner (a
   * treasury account's money is moved by the resident's proxy too). Needs `foreignResident`.
   */
  proxy: boolean;
  /**
   * With `proxy`: whether the proxy holder also changes the record (`"proxy": true`), or only sees it (`"proxy":
   * "see"`): then a write needs the owner, or the target's `party`, else Forbidden.
   */
  proxyActs: boolean;
  /**
   * Whether an administrator's session passes the role, ownership and status checks (default true: administrators
   * correct records). False where the call spends the target's money: a treasury account's owner moves it, never an
   * administrator.
   */
  adminBypass: boolean;
  /**
   * The target's party, an alternative to the role: a caller who sees the target (a member of its company, or the
   * owner or proxy of its resident) and is the party the record's field names passes without the role (without
   * owning the resident): the giver of a share transfer, the initiator of a fund transfer. `resident`: the field
   * holds a resident the caller owns or holds an effective proxy for; `user`: the field holds the caller's user id.
   */
  party: TargetParty | null;
  /**
   * The param is optional: absent, nothing is loaded or checked and the handler sees `ctx.target.row` null (a
   * payment default for the caller alone, or for a company it directs).
   */
  optional: boolean;
  /** The record's `x-company`, filled in when the model is checked. */
  company: CompanyLink | null;
}

/** `x-acts-as`: the resident whose status must allow `action` (docs/decisions.md "Resident status"). */
export interface ActsAs {
  /** The param naming the resident; null with `caller`. */
  param: string | null;
  /** The caller's own residents (the pair user_id, partner_id): one of them must allow the action. */
  caller: boolean;
  action: "act" | "register" | "renew" | "update_profile" | "update_subscription" | "delete" | "activate";
  /**
   * A company role (CompanyRoleKind, or `member`) the named resident itself must hold in the target's company: a
   * rule on the author the call records (a report's generated_by), not on the caller. Null: none.
   */
  role: string | null;
}

/**
 * Where an API key's `tools/list` shows a tool (issue 32 item 10): `always`; `asked`, only when the key's allowed
 * patterns name it (generic record reads); `never` (a tool that cannot succeed for a key: a write of a record that
 * is read-only through generic CRUD, a record only administrators see, a method that is no agent tool).
 */
export type McpListing = "always" | "asked" | "never";

export interface McpPolicy {
  name: string;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  amountParam: string | null;
  /**
   * `x-mcp.agentTool` (default true): false for a method that signs up, signs in or manages credentials, which no
   * agent key may call, on `/mcp` or on `/rpc`.
   */
  agentTool: boolean;
  listing: McpListing;
}

export interface ParamModel {
  name: string;
  required: boolean;
  description: string | null;
  schema: JsonSchema;
}

export interface MethodModel {
  /** Wire name, e.g. `residentservice.set_anonymity` or `digitalresident.get`. */
  name: string;
  kind: "service" | "crud";
  /** Service title (`ResidentService`) or record title for CRUD. */
  owner: string;
  /** Operation part of the name: `set_anonymity`, `get`. */
  op: string;
  /** camelCase handler name: `setAnonymity`. */
  handlerName: string;
  domain: string;
  summary: string;
  description: string;
  params: ParamModel[];
  /** Name of the named result schema. */
  result: string;
  auth: AuthMode;
  /** `x-target`, or null. */
  target: Target | null;
  /** `x-acts-as`, or null. */
  actsAs: ActsAs | null;
  /** `x-visibility`: the DocumentAudience rule decides what the read answers (codegen/visibility.ts), or null. */
  visibility: Visibility | null;
  internal: boolean;
  /** `x-spends`: the method may move money out of a credit wallet or treasury account during the call. */
  spends: boolean;
  callerBinding: CallerBinding | null;
  password: string | null;
  audit: AuditPolicy | null;
  mcp: McpPolicy;
  errors: Record<string, string[]>;
  aliases: string[];
  file: string;
  pointer: string;
}

export interface ServiceModel {
  name: string;
  lower: string;
  /** camelCase key in the handler map: `residentService`. */
  key: string;
  file: string;
  version: string;
  domain: string;
  description: string;
  errorTypes: string[];
  alias: string | null;
  methods: MethodModel[];
}

export type FieldKind = "string" | "integer" | "number" | "boolean" | "datetime" | "string[]" | "json";

/** An exact decimal column: money (`x-money`, numeric(18,2)) or a rate/percentage (`x-decimal: [p, s]`). */
export interface NumericColumn {
  precision: number;
  scale: number;
  money: boolean;
}

export interface FieldModel {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  schema: JsonSchema;
  default: unknown;
  /** Set for `number` fields stored as `numeric`; null means `double precision`. */
  numeric: NumericColumn | null;
}

/** One `x-unique-where` entry: index `<table>_<name>_unique` on `fields`, over the rows `where` selects. */
export interface PartialUnique {
  name: string;
  fields: string[];
  where: string;
}

export interface RecordModel {
  name: string;
  /** Lower-case wire prefix: `digitalresident`. */
  lower: string;
  table: string;
  file: string;
  domain: string;
  description: string;
  schema: JsonSchema;
  fields: FieldModel[];
  indexed: string[];
  unique: string[][];
  /** Partial unique indexes (`x-unique-where`): unique among the rows the SQL condition selects. */
  uniqueWhere: PartialUnique[];
  owner: string[];
  crud: CrudMode;
  managed: string[];
  secret: string[];
  private: string[];
  /**
   * `x-crud-scope`: equalities every generic operation adds, so rows outside it do not exist for generic CRUD
   * (the system-minted assistant key: `{ "is_system_minted": false }`).
   */
  crudScope: Record<string, string | number | boolean | null>;
  appendOnly: boolean;
  /** `x-company`: how the record reaches its company, or null. */
  company: CompanyLink | null;
  /** False for server bookkeeping the seeds do not name (`x-served: false`): left out of the served components. */
  served: boolean;
}

export interface ErrorCodeModel {
  name: string;
  code: number;
  message: string;
  variants: string[];
}

export interface DomainModel {
  name: string;
  services: string[];
}

export interface SpecModel {
  context: string;
  schemaVersion: string;
  domains: DomainModel[];
  services: ServiceModel[];
  records: RecordModel[];
  /** Every named schema: records (full, internal view), enums, shared schemas and service components. */
  schemas: Record<string, JsonSchema>;
  /** Where each named schema was defined. */
  schemaFiles: Record<string, string>;
  enums: string[];
  errorCodes: ErrorCodeModel[];
  errorTypes: string[];
  /** Every method, service and CRUD, in a stable order. */
  methods: MethodModel[];
}
