import type { CoopEventRow } from "../../../generated/entities.ts";
import type { EntityDraftServiceHandlers } from "../../../generated/handlers/index.ts";
import type { CoopEventResult } from "../../../generated/types.ts";
import { eventRefusal } from "../../domain/coop-events.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
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
 * The dispatcher loaded the company, checked the caller's director role and that the company operates (x-target),
 * that created_by is a resident the caller owns or acts for (x-caller-binding), that it may act and holds the
 * director role itself (x-acts-as role). The handler keeps the business rule: events are for cooperatives.
 */
export const createEvent: H["createEvent"] = async (ctx, params) => {
  const type = ctx.target.row.company_type;
  if (!type.startsWith("coop_"))
    throw draftError("InvalidState", "events are for cooperatives only", { company_type: type });
  const now = ctx.now();
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
  return { items: (await events.eventsOf(ctx.em, company_id)).map(toEventResult) };
};
