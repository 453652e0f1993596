/**
 * The one place user-supplied values are made safe for the texts the platform generates (issue 29 item 5): official
 * documents, contract and formation renders, tax documents, emails (plain text and HTML), the invoice PDF and inbox
 * notices. Templates are trusted, values are not: every value a renderer interpolates goes through the function of
 * its output format here, so a company name or an address line cannot add a heading, a link, an image or an HTML
 * tag, and a one-line value cannot start a new line of the document. The spec refuses line breaks and control
 * characters in one-line fields before a handler runs (SINGLE_LINE_PATTERN, docs/decisions.md "Single-line fields
 * and escaped renders"); these functions still hold for values that reached the rows another way.
 */

/** C0 controls (tab, LF and CR included), DEL, C1 controls (U+0085 next line included), U+2028 and U+2029. */
const ONE_LINE_REFUSES = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029";
/** The same less tab, LF and CR, which text blocks keep (U+2028/U+2029 are let through and read as LF). */
const TEXT_BLOCK_REFUSES = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f";

/**
 * The JSON Schema `pattern` of a one-line field (names, titles, address lines): no C0 control character (line feed,
 * carriage return and tab included), no DEL, no C1 control (U+0085 next line included), no line or paragraph
 * separator. The spec carries this exact string; a pure test keeps the two equal.
 */
export const SINGLE_LINE_PATTERN = `^[^${ONE_LINE_REFUSES}]*$`;

/** The `pattern` of a multi-line field (descriptions, bodies, notes): the same, but tab, line feed and CR allowed. */
export const MULTI_LINE_PATTERN = `^[^${TEXT_BLOCK_REFUSES}]*$`;

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, "u");
const MULTI_LINE = new RegExp(MULTI_LINE_PATTERN, "u");

/** Whether `value` may stand in a one-line field. */
export function isSingleLine(value: string): boolean {
  return SINGLE_LINE.test(value);
}

/** Whether `value` may stand in a multi-line field. */
export function isTextBlock(value: string): boolean {
  return MULTI_LINE.test(value);
}

/** Runs of line breaks, tabs and other control characters: what SINGLE_LINE_PATTERN refuses. */
const BREAKS_AND_CONTROLS = new RegExp(`[${ONE_LINE_REFUSES}]+`, "gu");
/** Control characters a text block drops: what MULTI_LINE_PATTERN refuses. */
const CONTROLS_BUT_LAYOUT = new RegExp(`[${TEXT_BLOCK_REFUSES}]`, "gu");

/** Plain text on one line: each run of line breaks, tabs and control characters becomes one space; trimmed. */
export function singleLine(value: string | number): string {
  return String(value).replace(BREAKS_AND_CONTROLS, " ").trim();
}

/** Plain text over lines: CR LF, CR and the Unicode separators become LF; other control characters (not tab) go. */
export function textBlock(value: string): string {
  return value
    .replace(/\r\n?|[\u2028\u2029]/gu, "\n")
    .replace(CONTROLS_BUT_LAYOUT, "")
    .trim();
}

/** The characters HTML gives meaning to, as entities. */
const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** A value inside an HTML body or attribute: a text block (controls dropped) with `& < > " '` as entities. */
export function htmlText(value: string): string {
  return textBlock(value).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

/**
 * Characters CommonMark (and GFM) read as inline markup: emphasis, code, links and images (`[`, `]`, `!`), tables,
 * strikethrough, headings, placeholders (`{`, `}`) and the escape itself. `&`, `<`, `>` are handled apart: entities.
 */
const INLINE_MARKUP = /[\\`*_{}[\]|#~!]/g;

/**
 * A value as plain text inside markdown, on one line (singleLine): `&`, `<` and `>` become entities (no HTML tag, no
 * autolink such as `<javascript:...>`, no block quote, no entity of the value's own), inline markup characters are
 * backslash-escaped (no link, image, emphasis, code, table cell or heading), and a line-start marker (`-`, `+`, `=`,
 * `1.`, `1)`) is escaped, so a value placed after `- ` or at a line start never becomes a list, a heading or a rule.
 */
export function markdownText(value: string | number): string {
  const escaped = singleLine(value)
    .replace(/[&<>]/g, (c) => HTML_ENTITIES[c] ?? c)
    .replace(INLINE_MARKUP, (c) => `\\${c}`);
  return escaped.replace(/^([-+=])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
}
