/**
 * Domain synonyms of the tool search: a query word (stemmed, as discovery-text.ts `terms` makes it) and the
 * catalogue words it also looks for, at half weight. Empty until the first measurement (docs/decisions.md).
 */
export const DISCOVERY_SYNONYMS = new Map<string, string[]>();
