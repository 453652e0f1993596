import { type Refusal, refuse } from "./refusal.ts";

/** The rules of a cooperative event (entitydraftservice.create_event), pure. */

export interface EventInput {
  title: string;
  description: string | undefined;
  startAt: Date;
  endAt: Date | null;
}

export const MAX_TITLE = 200;
export const MAX_DESCRIPTION = 5000;

/** Title 1-200 characters once trimmed, description at most 5,000 (blank: none), end not before start. */
export function eventRefusal(
  input: EventInput,
): Refusal<"InvalidInput"> | { title: string; description: string | null } {
  const title = input.title.trim();
  if (title === "" || title.length > MAX_TITLE)
    return refuse("InvalidInput", `title must be 1 to ${MAX_TITLE} characters`, { field: "title" });
  const description = input.description?.trim() ?? "";
  if (description.length > MAX_DESCRIPTION)
    return refuse("InvalidInput", `description is at most ${MAX_DESCRIPTION} characters`, { field: "description" });
  if (input.endAt !== null && input.endAt.getTime() < input.startAt.getTime())
    return refuse("InvalidInput", "end_at is before start_at", { field: "end_at" });
  return { title, description: description === "" ? null : description };
}
