/** Shared by the escaping tests (issue 29 item 5). */

/** The attack strings of issue 29 item 5, and an autolink for good measure. */
export const ATTACKS = {
  newlineAddress: "1 Main St\n# OFFICIAL: banking licence granted\r\n- Licence number: BANK-1",
  heading: "# OFFICIAL: this company holds a banking licence",
  javascriptLink: "[x](javascript:alert(1))",
  imageTag: "<img src=x onerror=alert(1)>",
  autolink: "<javascript:alert(1)>",
};

/** What CommonMark would read as live markup in a rendered line. */
export function liveMarkup(markdown: string): string[] {
  const found: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^ {0,3}#{1,6}(\s|$)/.test(line)) found.push(`heading: ${line}`);
    if (/^ {0,3}>/.test(line)) found.push(`quote: ${line}`);
  }
  if (/(^|[^\\])\[[^\]]*[^\\]\]\(/.test(markdown)) found.push("link");
  if (/<[a-zA-Z/!?]/.test(markdown)) found.push("html or autolink");
  return found;
}
