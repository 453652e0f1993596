import { HEADER } from "../derive.ts";
import type { RecordModel, SpecModel } from "../model.ts";
import { writableFields } from "../records.ts";
import type { GeneratedFile } from "../write.ts";

function descriptor(r: RecordModel): string {
  const value = {
    name: r.name,
    lower: r.lower,
    table: r.table,
    domain: r.domain,
    crud: r.crud,
    owner: r.owner,
    appendOnly: r.appendOnly,
    indexed: r.indexed,
    unique: r.unique,
    managed: r.managed,
    secret: r.secret,
    private: r.private,
    scope: r.crudScope,
    writable: writableFields(r),
    fields: r.fields.map((f) => ({ name: f.name, kind: f.kind, nullable: f.nullable, default: f.default })),
  };
  return `  ${r.name}: ${JSON.stringify(value)},`;
}

/** Record descriptors for the generic CRUD engine and the handler interface it implements. */
export function emitCrud(model: SpecModel): GeneratedFile[] {
  const content = [
    HEADER,
    'import type { CrudDeleteParams, CrudFindParams, CrudGetParams, CrudListParams, CrudNewParams, CrudSetParams } from "./types.ts";',
    "",
    'export type CrudMode = "none" | "read" | "owner" | "admin";',
    'export type FieldKind = "string" | "integer" | "number" | "boolean" | "datetime" | "string[]" | "json";',
    "",
    "export interface FieldSpec {",
    "  name: string;",
    "  kind: FieldKind;",
    "  nullable: boolean;",
    "  default: unknown;",
    "}",
    "",
    "/** One stored record with the policy of its spec extensions. */",
    "export interface RecordSpec {",
    "  name: string;",
    "  lower: string;",
    "  table: string;",
    "  domain: string;",
    "  crud: CrudMode;",
    "  owner: string[];",
    "  appendOnly: boolean;",
    "  indexed: string[];",
    "  unique: string[][];",
    "  managed: string[];",
    "  secret: string[];",
    "  private: string[];",
    "  /** `x-crud-scope`: equalities every generic operation adds (rows outside it do not exist for CRUD). */",
    "  scope: Record<string, string | number | boolean | null>;",
    "  /** Fields generic `set` may write. */",
    "  writable: string[];",
    "  fields: FieldSpec[];",
    "}",
    "",
    "export type CrudRow = Record<string, unknown>;",
    "",
    "/** Implemented once in src/: the generic record operations of API.md. */",
    "export interface CrudHandlers<Ctx> {",
    '  "new"(ctx: Ctx, record: RecordSpec, params: CrudNewParams): Promise<CrudRow>;',
    "  get(ctx: Ctx, record: RecordSpec, params: CrudGetParams): Promise<CrudRow>;",
    "  set(ctx: Ctx, record: RecordSpec, params: CrudSetParams): Promise<CrudRow>;",
    "  delete(ctx: Ctx, record: RecordSpec, params: CrudDeleteParams): Promise<{ sid: string; deleted: true }>;",
    "  list(ctx: Ctx, record: RecordSpec, params: CrudListParams): Promise<{ sids: string[]; next_cursor: string | null }>;",
    "  find(ctx: Ctx, record: RecordSpec, params: CrudFindParams): Promise<{ items: CrudRow[]; next_cursor: string | null }>;",
    "}",
    "",
    "export const RECORDS = {",
    ...model.records.map(descriptor),
    "} satisfies Record<string, RecordSpec>;",
    "",
    "export type RecordName = keyof typeof RECORDS;",
    "",
  ].join("\n");
  return [{ path: "generated/crud.ts", content }];
}
