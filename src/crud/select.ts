import type { EntityManager } from "@mikro-orm/postgresql";
import type { RecordSpec } from "../../generated/crud.ts";
import type { AnyRow } from "../../generated/entities.ts";
import { preparedRows } from "../db/fast-sql.ts";
import { wireFields } from "./rows.ts";

/**
 * The generic reads' SQL: `select <columns> from <table> where <equalities>`, run as a prepared statement with
 * every value a parameter (src/db/fast-sql.ts). The column list is built once per record from its spec: the
 * fields the wire shows (secret and private columns never leave the database), or the sid alone for `list`.
 * Equalities come in a canonical order (the caller's scope, then the record's field order), so one shape of
 * query is one statement text whatever the order of the JSON keys a caller sent.
 */

export type Columns = "wire" | "sid";

const heads = { wire: new Map<RecordSpec, string>(), sid: new Map<RecordSpec, string>() };

function selectHead(record: RecordSpec, columns: Columns): string {
  let head = heads[columns].get(record);
  if (head === undefined) {
    const names = columns === "sid" ? ["sid"] : wireFields(record).map((f) => f.name);
    if (!names.includes("sid")) names.unshift("sid");
    head = `select ${names.map((n) => `"${n}"`).join(", ")} from "${record.table}"`;
    heads[columns].set(record, head);
  }
  return head;
}

const fieldOrders = new Map<RecordSpec, Map<string, number>>();

function fieldOrder(record: RecordSpec): Map<string, number> {
  let order = fieldOrders.get(record);
  if (!order) {
    order = new Map(record.fields.map((f, i) => [f.name, i]));
    fieldOrders.set(record, order);
  }
  return order;
}

/** Conditions on the record's own fields in the record's field order (names were checked against the spec). */
export function canonical(record: RecordSpec, conditions: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(conditions);
  if (entries.length < 2) return entries;
  const order = fieldOrder(record);
  return entries.sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

export interface SelectQuery {
  columns: Columns;
  /** Equalities (null: `is null`), in the order given: the caller's scope first, then `canonical` conditions. */
  where: [string, unknown][];
  /** Keyset page, newest sid first; absent for a lookup by sid. */
  page?: { before: string | null; limit: number };
}

/** The text and parameters of a select (exported for tests: the values are never in the text). */
export function selectSql(record: RecordSpec, query: SelectQuery): { text: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of query.where) {
    if (value === null) clauses.push(`"${field}" is null`);
    else {
      params.push(value);
      clauses.push(`"${field}" = $${params.length}`);
    }
  }
  if (query.page?.before) {
    params.push(query.page.before);
    clauses.push(`"sid" < $${params.length}`);
  }
  let text = selectHead(record, query.columns);
  if (clauses.length > 0) text += ` where ${clauses.join(" and ")}`;
  if (query.page) {
    params.push(Math.trunc(query.page.limit));
    text += ` order by "sid" desc limit $${params.length}`;
  }
  return { text, params };
}

export function selectRows(em: EntityManager, record: RecordSpec, query: SelectQuery): Promise<AnyRow[]> {
  const { text, params } = selectSql(record, query);
  return preparedRows<AnyRow>(em, text, params);
}
