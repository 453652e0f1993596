import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../../domain/ids.ts";
import { singleLine } from "../../domain/text-render.ts";
import type { EmailMessage } from "../../integrations/email/index.ts";
import { insertUserMessage } from "../../repos/messages.ts";

/**
 * The formation events' messages (seed 001 "Events" 5): the invitation email, and inbox messages (category
 * company, type notification) to the creator or the invitees. Posted in the call's transaction.
 */

export function postInbox(em: EntityManager, userId: string, title: string, body: string, now: Date): void {
  insertUserMessage(em, {
    sid: uuidv7(now),
    user_id: userId,
    title: title.slice(0, 200),
    body: body.slice(0, 10_000),
    message_type: "notification",
    category: "company",
    action_url: null,
    action_label: null,
    is_read: false,
    created_at: now,
    updated_at: now,
  });
}

export interface InvitationEmail {
  to: string;
  entityName: string;
  inviterName: string | null;
  role: string;
  invitationId: string;
  expiresAt: Date;
  baseUrl: string;
}

/** The invitation email; the entity's and the inviter's names are one line (src/domain/text-render.ts). */
export function invitationEmail(e: InvitationEmail): EmailMessage {
  const link = `${e.baseUrl}/invitations/${encodeURIComponent(e.invitationId)}`;
  const entity = singleLine(e.entityName);
  const inviter = e.inviterName === null ? "A founder" : singleLine(e.inviterName);
  return {
    to: e.to,
    template: "entity_invitation",
    subject: `You are invited to sign the formation of ${entity}`,
    bodyText: [
      `${inviter} invites you to sign the formation documents of ${entity} as ${e.role.replace(/_/g, " ")}.`,
      "",
      link,
      "",
      `Read the documents, then accept or decline. The invitation expires at ${e.expiresAt.toISOString()}.`,
    ].join("\n"),
  };
}
