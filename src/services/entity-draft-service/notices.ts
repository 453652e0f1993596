import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../../domain/ids.ts";
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

export function invitationEmail(e: InvitationEmail): EmailMessage {
  const link = `${e.baseUrl}/invitations/${encodeURIComponent(e.invitationId)}`;
  return {
    to: e.to,
    template: "entity_invitation",
    subject: `You are invited to sign the formation of ${e.entityName}`,
    bodyText: [
      `${e.inviterName ?? "A founder"} invites you to sign the formation documents of ${e.entityName} as ${e.role.replace(/_/g, " ")}.`,
      "",
      link,
      "",
      `Read the documents, then accept or decline. The invitation expires at ${e.expiresAt.toISOString()}.`,
    ].join("\n"),
  };
}
