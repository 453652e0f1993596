import type { EntityManager } from "@mikro-orm/postgresql";
import { WebhookEventEntity, type WebhookEventRow } from "../../generated/entities.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The WebhookEvent table: provider event ids already handled, with a hash of the body that carried them. */

export function findWebhookEvent(
  em: EntityManager,
  provider: string,
  eventId: string,
): Promise<WebhookEventRow | null> {
  return em.findOne(WebhookEventEntity, { provider, event_id: eventId });
}

/** Records a handled event once; a concurrent delivery of the same id leaves the first record. */
export async function recordWebhookEvent(
  em: EntityManager,
  provider: string,
  eventId: string,
  payloadHash: string,
  now: Date,
): Promise<void> {
  await affected(
    em,
    `insert into "webhook_event" (sid, provider, event_id, received_at, payload_hash, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?) on conflict (provider, event_id) do nothing`,
    [uuidv7(now), provider, eventId, now, payloadHash, now, now],
  );
}
