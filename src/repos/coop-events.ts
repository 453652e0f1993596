import type { EntityManager } from "@mikro-orm/postgresql";
import { CoopEventEntity, type CoopEventRow } from "../../generated/entities.ts";

/** The CoopEvent table (cooperative calendars): written by create_event, read by list_events. */

export const EVENT_LIST_LIMIT = 1000;

/** The company type of a company, or null when there is no such company. */
export async function insertEvent(em: EntityManager, row: CoopEventRow): Promise<void> {
  await em.insert(CoopEventEntity, row);
}

/** The cooperative's events, latest start first. */
export function eventsOf(em: EntityManager, companyId: string): Promise<CoopEventRow[]> {
  return em.find(
    CoopEventEntity,
    { company_id: companyId },
    { orderBy: { start_at: "desc", sid: "desc" }, limit: EVENT_LIST_LIMIT, disableIdentityMap: true },
  );
}
