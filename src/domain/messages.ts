import { type Refusal, refuse } from "./refusal.ts";

/** Rules of inbox messages (MessageService): texts and action links. */

export const MAX_MESSAGE_TITLE = 200;
export const MAX_MESSAGE_BODY = 10_000;

export interface MessageText {
  title: string;
  body: string;
}

/** Title and body trimmed; blank or too long refused (InvalidInput). */
export function messageText(title: string, body: string): MessageText | Refusal<"InvalidInput"> {
  const t = title.trim();
  const b = body.trim();
  if (t === "" || t.length > MAX_MESSAGE_TITLE) {
    return refuse("InvalidInput", `title must be 1-${MAX_MESSAGE_TITLE} characters`, { field: "title" });
  }
  if (b === "" || b.length > MAX_MESSAGE_BODY) {
    return refuse("InvalidInput", `body must be 1-${MAX_MESSAGE_BODY} characters`, { field: "body" });
  }
  return { title: t, body: b };
}

/** An optional action link: absent or blank is none; otherwise an absolute https URL with a host. */
export function actionUrl(url: string | undefined): string | null | Refusal<"InvalidInput"> {
  if (url === undefined || url.trim() === "") return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return refuse("InvalidInput", "action_url must be an https URL", { field: "action_url" });
  }
  if (parsed.protocol !== "https:" || parsed.hostname === "") {
    return refuse("InvalidInput", "action_url must be an https URL", { field: "action_url" });
  }
  return url.trim();
}

/** The audience tiers a company message is classified for: every member tier (any current member reads it). */
export const COMPANY_MESSAGE_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];

/** The rule name written in DocumentAudience.audience_computation for company messages. */
export const COMPANY_MESSAGE_AUDIENCE_RULE = "company_message_members";
