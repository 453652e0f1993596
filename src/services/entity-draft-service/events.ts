import type { CoopEventRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import type { CoopEventResult } from "../../../generated/types.ts";
import { satisfiesCompanyRole } from "../../auth/access.ts";
import { eventRefusal } from "../../domain/coop-events.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { companyOperableRefusal } from "../../repos/companies.ts";
import { currentCompanyRoles } from "../../repos/company-access.ts";
import * as events from "../../repos/coop-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { draftError, refused } from "./common.ts";

type H = EntityDraftServiceHandlers<RpcContext>;

function toEventResult(row: CoopEventRow): CoopEventResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    title: row.title,
    description: row.description,
    event_type: row.event_type,
    start_at: row.start_at.toISOString(),
    end_at: row.end_at === null ? null : row.end_at.toISOString(),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The dispatcher checked the caller's director role (company:director) and that created_by is a resident the caller
 * owns or acts for; the handler checks that created_by itself holds the director role (a founder may act as director).
 */
export const createEvent: H["createEvent"] = async (ctx, params) => {
  const type = await events.companyTypeOf(ctx.em, params.company_id);
  if (type === null) throw draftError.notFound("company");
  if (!type.startsWith("coop_"))
    throw draftError("InvalidState", "events are for cooperatives only", { company_type: type });
  const status = await companyOperableRefusal(ctx.em, params.company_id);
  if (status === "missing") throw draftError.notFound("company");
  if (status) throw refused(status);
  const now = ctx.now();
  const held = await currentCompanyRoles(ctx.em, params.company_id, [params.created_by], now);
  if (!satisfiesCompanyRole(held, "director"))
    throw draftError("Forbidden", "created_by must hold the director role in the cooperative", { field: "created_by" });
  const checked = eventRefusal({
    title: params.title,
    description: params.description,
    startAt: new Date(params.start_at),
    endAt: params.end_at === undefined ? null : new Date(params.end_at),
  });
  if (isRefusal(checked)) throw refused(checked);
  const row: CoopEventRow = {
    sid: uuidv7(now),
    company_id: params.company_id,
    title: checked.title,
    description: checked.description,
    event_type: params.event_type,
    start_at: new Date(params.start_at),
    end_at: params.end_at === undefined ? null : new Date(params.end_at),
    created_by: params.created_by,
    created_at: now,
    updated_at: now,
  };
  await events.insertEvent(ctx.em, row);
  return toEventResult(row);
};

export const listEvents: H["listEvents"] = async (ctx, { company_id }) => {
  if ((await events.companyTypeOf(ctx.em, company_id)) === null) throw draftError.notFound("company");
  return { items: (await events.eventsOf(ctx.em, company_id)).map(toEventResult) };
};
