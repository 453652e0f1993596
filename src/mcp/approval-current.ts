import type { EntityManager } from "@mikro-orm/postgresql";
import { RECORDS, type RecordSpec } from "../../generated/crud.ts";
import type { McpApprovalRow } from "../../generated/entities.ts";
import { toWire } from "../crud/rows.ts";
import type { Runtime } from "../rpc/runtime.ts";

/**
 * The current value beside the proposed one (issue 32 item 11): for a call of an `update` operation whose x-target
 * names the record it changes (companyservice.update, invoiceservice.update, expenseservice.update), that record's
 * present values of the fields the call would set (the keys of its `data` object, or its own params that are fields
 * of the record), secrets and private fields never included. Other operations whose target is the company they
 * act in (create an invoice *in* a company) compare with nothing: the company is not what they change.
 */
export async function currentValues(
  em: EntityManager,
  registry: Runtime["registry"],
  row: McpApprovalRow,
  args: unknown,
): Promise<string | null> {
  const entry = registry.get(row.rpc_method ?? "");
  if (!entry?.target || entry.mcp.readOnly || entry.op !== "update" || !isObject(args)) return null;
  const record = (RECORDS as unknown as Record<string, RecordSpec>)[entry.target.record];
  const key = args[entry.target.param];
  if (!record || (typeof key !== "string" && typeof key !== "number")) return null;
  const found = await em.findOne<Record<string, unknown>>(record.name, { [entry.target.field]: key } as never, {
    disableIdentityMap: true,
  });
  if (!found) return null;
  const wire = toWire(record, found);
  const proposed = isObject(args["data"]) ? args["data"] : args;
  const shown = Object.keys(proposed).filter((k) => k !== entry.target?.param && k in wire);
  return shown.length > 0 ? JSON.stringify(Object.fromEntries(shown.map((k) => [k, wire[k]]))) : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
