import type { FilterQuery } from "@mikro-orm/postgresql";
import type { ValidateFunction } from "ajv";
import type { CrudHandlers, RecordSpec } from "../../generated/crud.ts";
import type { AnyRow } from "../../generated/entities.ts";
import * as validators from "../../generated/validators.cjs";
import { uuidv7 } from "../domain/ids.ts";
import { cursorPage, decodeCursor } from "../repos/paging.ts";
import { type Caller, isAdminSession, type RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { refuseNul } from "../rpc/jsonrpc.ts";
import { fromWire, initialValue, toWire } from "./rows.ts";
import { type Columns, canonical, selectRows } from "./select.ts";

type Where = FilterQuery<AnyRow>;

const DEFAULT_LIMIT = 1000;

/** The rows of `record` the caller may see: administrators (in a session) all, owners theirs, others none; within `scope`. */
function visibility(record: RecordSpec, caller: Caller | null): Where | null {
  // x-crud-scope: rows outside it (the system-minted assistant key) do not exist for generic CRUD, for anyone.
  if (isAdminSession(caller)) return { ...record.scope } as Where;
  if (!caller || record.owner.length === 0) return null;
  const where: Record<string, unknown> = { ...record.scope };
  for (const field of record.owner) {
    if (field === "partner_id") where[field] = caller.partnerId;
    else if (field.endsWith("user_id")) where[field] = caller.userId;
    else return null;
  }
  return where as Where;
}

function parseJsonObject(text: string, param: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw RpcError.invalidParams(`${param} is not valid JSON`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw RpcError.invalidParams(`${param} must be a JSON object`);
  refuseNul(value, param);
  return value as Record<string, unknown>;
}

/** Datetime conditions bind as the instant they name (RFC 3339 UTC: both databases read it alike); the rest as given. */
function toColumnValues(record: RecordSpec, conditions: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(conditions)) {
    const field = record.fields.find((f) => f.name === key);
    out[key] = field?.kind === "datetime" && typeof value === "string" ? new Date(value).toISOString() : value;
  }
  return out;
}

function matchesKind(kind: string, value: unknown): boolean {
  if (value === null) return true;
  switch (kind) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value));
    case "string":
      return typeof value === "string";
    default:
      return false;
  }
}

/**
 * Reads go straight to SQL (plain rows, no unit of work, a prepared statement: src/crud/select.ts): equality on
 * the caller's scope AND the conditions. Field names come from the spec (conditions are checked against indexed
 * fields first), values are bound.
 */
async function selectVisible(
  ctx: RpcContext,
  record: RecordSpec,
  columns: Columns,
  conditions: Record<string, unknown>,
  page?: { before: string | null; limit: number },
): Promise<AnyRow[]> {
  const scope = visibility(record, ctx.caller);
  if (scope === null) return [];
  const where = [...Object.entries(scope as object), ...canonical(record, conditions)];
  return selectRows(ctx.em, record, page ? { columns, where, page } : { columns, where });
}

async function findVisible(ctx: RpcContext, record: RecordSpec, sid: string): Promise<AnyRow | null> {
  const scope = visibility(record, ctx.caller);
  if (scope === null) return null;
  return ctx.em.findOne<AnyRow>(record.name, { ...(scope as object), sid } as Where);
}

function checkSetData(record: RecordSpec, data: Record<string, unknown>): void {
  const refused = Object.keys(data).filter((k) => k !== "sid" && !record.writable.includes(k));
  if (refused.length > 0) {
    throw RpcError.invalidParams(
      `data may not set ${refused.map((f) => `"${f}"`).join(", ")} (server-managed, secret, private or unknown)`,
      [{ path: "/data", message: "fields not writable", params: { fields: refused } }],
    );
  }
  const validate = (validators as unknown as Record<string, ValidateFunction>)[`validate${record.name}SetData`];
  if (validate && !validate(data)) {
    const errors = (validate.errors ?? []).map((e) => ({
      path: `/data${e.instancePath}`,
      message: e.message ?? "invalid",
      params: e.params,
    }));
    throw RpcError.invalidParams(`data ${errors[0]?.path ?? ""} ${errors[0]?.message ?? "is invalid"}`, errors);
  }
}

function refuseWrites(ctx: RpcContext, record: RecordSpec, what: string): void {
  if (record.crud === "read")
    throw RpcError.forbidden(
      "RecordError",
      "Forbidden",
      `${record.lower} records are read-only through generic CRUD; ${what} goes through the business operations`,
    );
  if (record.crud === "admin" && !isAdminSession(ctx.caller))
    throw RpcError.forbidden("RecordError", "AdminOnly", "administrators only");
}

async function create(ctx: RpcContext, record: RecordSpec, data: Record<string, unknown>): Promise<AnyRow> {
  const missing = record.fields.filter(
    (f) => record.writable.includes(f.name) && !f.nullable && f.default === null && data[f.name] === undefined,
  );
  if (missing.length > 0) throw RpcError.invalidParams(`data needs ${missing.map((f) => `"${f.name}"`).join(", ")}`);
  const now = ctx.now();
  const row: AnyRow = { sid: uuidv7(now) };
  for (const field of record.fields) {
    if (field.name === "sid") continue;
    row[field.name] = data[field.name] !== undefined ? fromWire(field, data[field.name]) : initialValue(field);
  }
  row["created_at"] = now;
  row["updated_at"] = now;
  if (ctx.caller) for (const f of record.owner) row[f] = f === "partner_id" ? ctx.caller.partnerId : ctx.caller.userId;
  ctx.em.create(record.name, row);
  return row;
}

async function page(
  ctx: RpcContext,
  record: RecordSpec,
  columns: Columns,
  where: Record<string, unknown>,
  limit: number | undefined,
  cursor: string | null | undefined,
) {
  const after = decodeCursor(cursor, 1, () => RpcError.invalidParams("cursor is not valid"));
  const size = limit ?? DEFAULT_LIMIT;
  const rows = await selectVisible(ctx, record, columns, where, { before: after?.[0] ?? null, limit: size + 1 });
  return cursorPage(
    rows,
    size,
    (row) => [row.sid],
    (row) => row,
  );
}

/** The generic record operations of API.md, under each record's x-crud mode. */
export const crudHandlers: CrudHandlers<RpcContext> = {
  async new(_ctx, record) {
    const template: Record<string, unknown> = {};
    for (const field of record.fields)
      if (record.writable.includes(field.name)) template[field.name] = field.default ?? null;
    return template;
  },

  async get(ctx, record, { sid }) {
    const [row] = await selectVisible(ctx, record, "wire", { sid });
    if (!row) throw RpcError.notFound("RecordError", record.lower);
    return toWire(record, row);
  },

  async set(ctx, record, { data }) {
    const parsed = parseJsonObject(data, "data");
    checkSetData(record, parsed);
    const sid = parsed["sid"];
    if (sid === undefined) {
      refuseWrites(ctx, record, "creation");
      return toWire(record, await create(ctx, record, parsed));
    }
    const row = await findVisible(ctx, record, String(sid));
    if (!row) throw RpcError.notFound("RecordError", record.lower);
    if (record.appendOnly)
      throw RpcError.forbidden("RecordError", "Forbidden", `${record.lower} records are append-only`);
    refuseWrites(ctx, record, "a change");
    for (const field of record.fields) {
      if (field.name !== "sid" && parsed[field.name] !== undefined)
        row[field.name] = fromWire(field, parsed[field.name]);
    }
    row["updated_at"] = ctx.now();
    return toWire(record, row);
  },

  async delete(ctx, record, { sid }) {
    const row = await findVisible(ctx, record, sid);
    if (!row) throw RpcError.notFound("RecordError", record.lower);
    refuseWrites(ctx, record, "deletion");
    ctx.em.remove(row);
    return { sid, deleted: true };
  },

  async list(ctx, record, { limit, cursor }) {
    const { items, next_cursor } = await page(ctx, record, "sid", {}, limit, cursor);
    return { sids: items.map((r) => r.sid), next_cursor };
  },

  async find(ctx, record, { query, limit, cursor }) {
    const conditions = parseJsonObject(query, "query");
    const notIndexed = Object.keys(conditions).filter((k) => !record.indexed.includes(k));
    if (notIndexed.length > 0)
      throw RpcError.invalidParams(`query may only use indexed fields; not indexed: ${notIndexed.join(", ")}`);
    const hidden = Object.keys(conditions).filter((k) => record.secret.includes(k) || record.private.includes(k));
    if (hidden.length > 0)
      throw RpcError.invalidParams(`query may not use secret or private fields: ${hidden.join(", ")}`);
    for (const [key, value] of Object.entries(conditions)) {
      const field = record.fields.find((f) => f.name === key);
      if (!field || !matchesKind(field.kind, value)) {
        throw RpcError.invalidParams(`query.${key} must be a ${field?.kind ?? "plain"} value (equality only)`);
      }
    }
    const { items, next_cursor } = await page(ctx, record, "wire", toColumnValues(record, conditions), limit, cursor);
    return { items: items.map((r) => toWire(record, r)), next_cursor };
  },
};
