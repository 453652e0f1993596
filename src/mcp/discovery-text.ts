/**
 * Text handling of the tool search (discovery-index.ts): words of a tool's fields and of a query, lowercased,
 * split at non-letters and camelCase, stop words dropped, reduced by a light English stemmer so that "invoices",
 * "invoicing" and "invoice" meet.
 */

const STOP = new Set(
  (
    "a an and are as at be by can do does for from has have how i if in into is it its me my of on or our so " +
    "that the their them then there these they this to was we were what when where which who will with you your " +
    "one some any all another other want need please get"
  ).split(" "),
);

/** Words that the stemmer would mangle or that must stay as they are. */
const KEEP = new Set(["kyc", "kyb", "mcp", "totp", "pdf", "vat", "api", "eur", "usd", "status", "business", "news"]);

/** Light suffix stripping (a subset of Porter's step 1 and 2): plurals, -ing, -ed, -ation, -ment, -ly. */
export function stem(word: string): string {
  if (word.length <= 3 || KEEP.has(word) || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -5);
  else if (w.endsWith("ment") && w.length > 7) w = w.slice(0, -4);
  else if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** "transferr" -> "transfer", "submitt" -> "submit": the doubled consonant left by -ed or -ing. */
function undouble(w: string): string {
  const last = w.at(-1) ?? "";
  if (w.length > 3 && last === w.at(-2) && !"lsz".includes(last)) return w.slice(0, -1);
  return w;
}

/** Raw lowercase words of a text: camelCase and snake_case split, digits kept with their word. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The index terms of a text: words without stop words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < 2 || STOP.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * Splits a run-together identifier ("treasuryoperations", "kycartifactpayload") into known words, using the
 * fewest pieces; a part no split explains stays whole.
 */
export function segment(word: string, vocabulary: Set<string>): string[] {
  const n = word.length;
  const best: (string[] | null)[] = new Array(n + 1).fill(null);
  best[0] = [];
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - 24); start < end; start++) {
      const before = best[start];
      const piece = word.slice(start, end);
      if (!before || piece.length < 2 || !vocabulary.has(piece)) continue;
      const candidate = [...before, piece];
      const current = best[end];
      if (!current || candidate.length < current.length) best[end] = candidate;
    }
  }
  return best[n] ?? [word];
}
