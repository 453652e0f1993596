import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../domain/ids.ts";
import { singleLine } from "../domain/text-render.ts";
import { emailProvider } from "../integrations/email/index.ts";
import { insertUserMessage } from "../repos/messages.ts";
import type { McpDeps } from "./deps.ts";
import type { Invocation } from "./invocation.ts";

/**
 * The owner is told that an agent key waits for a decision (issue 32 item 11): an inbox message and an email
 * (the configured provider; the sandbox keeps it in the outbox), both naming the key, the tool, the amount the dry
 * run measured, the reason and the deadline, with the console's approvals page. Sent with the approval; a failed
 * email does not undo it (the inbox message and the console show it anyway): it is logged.
 */
export async function tellOwner(
  deps: McpDeps,
  em: EntityManager,
  inv: Invocation,
  what: { sid: string; reason: string; amount: number; expiresAt: Date; now: Date; keyName: string | null },
): Promise<void> {
  const config = deps.runtime.config;
  const tool = singleLine(deps.catalog.titleOf(inv.toolName));
  const key = what.keyName === null ? "An agent key" : `Your agent key "${singleLine(what.keyName)}"`;
  const link = `${config.publicBaseUrl}/console/#/approvals`;
  const lines = [
    `${key} asks to run ${tool} (${inv.toolName}).`,
    `Amount measured by a dry run: ${what.amount}.`,
    `Why it needs you: ${what.reason}.`,
    `Decide before ${what.expiresAt.toISOString()}; after that it expires and never runs.`,
  ];
  insertUserMessage(em, {
    sid: uuidv7(what.now),
    user_id: inv.caller.userId,
    title: `Approval needed: ${tool}`.slice(0, 200),
    body: lines.join("\n"),
    message_type: "notification",
    category: "security",
    action_url: "/console/#/approvals",
    action_label: "Review the request",
    is_read: false,
    created_at: what.now,
    updated_at: what.now,
  });
  try {
    await emailProvider(config).send(
      { em, keepOnRollback: () => undefined, log: deps.runtime.log },
      {
        to: inv.caller.email,
        template: "mcp_approval_requested",
        subject: `Approval needed: ${tool}`,
        bodyText: [...lines, "", link].join("\n"),
      },
      what.now,
    );
  } catch (err) {
    deps.runtime.log.warn({ approvalId: what.sid, err }, "the approval email could not be sent");
  }
  await em.flush();
}
