import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { segment, terms, words } from "./discovery-text.ts";

/** A tool as the search sees it: `generic` marks the generated record operations (`freezone_<record>_<op>`). */
export interface SearchableTool {
  tool: Tool;
  readOnly: boolean;
  generic: boolean;
}

/** One search result: enough to choose a tool, not its schemas (freezone_describe_tool gives those). */
export interface SearchHit {
  name: string;
  title: string;
  summary: string;
  read_only: boolean;
  score: number;
}

type Field = "name" | "title" | "description" | "params";

/** BM25F field weights (name > title > description > params) and length normalization per field. */
const FIELDS: Record<Field, { weight: number; b: number }> = {
  name: { weight: 3, b: 0.3 },
  title: { weight: 2.5, b: 0.5 },
  description: { weight: 1, b: 0.75 },
  params: { weight: 0.5, b: 0.5 },
};
const K1 = 1.2;
/** Generic record operations ("New ZoneInvoice") are the raw table; a domain operation is what a job needs. */
const GENERIC_PRIOR = 0.6;
const SUMMARY_CHARS = 160;

interface Doc {
  item: SearchableTool;
  tf: Record<Field, Map<string, number>>;
  len: Record<Field, number>;
  summary: string;
}

function counts(list: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const t of list) map.set(t, (map.get(t) ?? 0) + 1);
  return map;
}

/** The first sentence after the title line, cut at a word boundary; the title when there is none. */
export function summaryOf(tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title ?? tool.name;
  const body = (tool.description ?? "").split("\n\n").slice(1).join(" ").trim();
  if (!body) return title;
  const sentence = body.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? body;
  if (sentence.length <= SUMMARY_CHARS) return sentence;
  const cut = sentence.slice(0, SUMMARY_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : SUMMARY_CHARS)} …`;
}

/**
 * Ranked keyword search over the tools a key may call (issue 19 discovery mode): BM25F over four fields of each
 * tool, built once per catalogue and filtered per key at query time. The name field is the tool name with
 * `freezone_` and `service` dropped and run-together words split ("treasuryoperationsservice" -> treasury
 * operations); the params field is the input's property names.
 */
export class ToolIndex {
  private readonly docs: Doc[] = [];
  private readonly df = new Map<string, number>();
  private readonly avg: Record<Field, number> = { name: 0, title: 0, description: 0, params: 0 };

  private readonly synonyms = new Map<string, string[]>();

  constructor(tools: SearchableTool[], synonyms: Record<string, string[]> = {}) {
    for (const [word, also] of Object.entries(synonyms)) {
      const key = terms(word)[0] ?? word;
      const known = this.synonyms.get(key) ?? [];
      this.synonyms.set(key, [...new Set([...known, ...also.flatMap((a) => terms(a))])]);
    }
    const vocabulary = new Set<string>();
    for (const { tool } of tools) {
      for (const w of words(`${tool.title ?? ""} ${tool.description ?? ""}`)) if (w.length >= 2) vocabulary.add(w);
    }
    for (const item of tools) {
      const { tool } = item;
      const fields: Record<Field, string[]> = {
        name: terms(nameWords(tool.name, vocabulary)),
        title: terms(tool.title ?? tool.annotations?.title ?? ""),
        description: terms(tool.description ?? ""),
        params: terms(Object.keys(tool.inputSchema.properties ?? {}).join(" ")),
      };
      const doc: Doc = {
        item,
        tf: {
          name: counts(fields.name),
          title: counts(fields.title),
          description: counts(fields.description),
          params: counts(fields.params),
        },
        len: {
          name: fields.name.length,
          title: fields.title.length,
          description: fields.description.length,
          params: fields.params.length,
        },
        summary: summaryOf(tool),
      };
      this.docs.push(doc);
      const seen = new Set([...fields.name, ...fields.title, ...fields.description, ...fields.params]);
      for (const t of seen) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      for (const f of Object.keys(FIELDS) as Field[]) this.avg[f] += doc.len[f];
    }
    for (const f of Object.keys(FIELDS) as Field[]) this.avg[f] = this.avg[f] / Math.max(1, this.docs.length) || 1;
  }

  get size(): number {
    return this.docs.length;
  }

  /** Query terms with their weights: each word of the query (1), and its synonyms (0.5) when not already there. */
  queryTerms(query: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const t of terms(query)) out.set(t, 1);
    for (const t of [...out.keys()]) {
      for (const s of this.synonyms.get(t) ?? []) if (!out.has(s)) out.set(s, 0.5);
    }
    return out;
  }

  /** The best `limit` tools that `allowed` lets through, by score (ties by name); tools scoring 0 are left out. */
  search(query: string, limit: number, allowed: (tool: Tool, readOnly: boolean) => boolean): SearchHit[] {
    const q = this.queryTerms(query);
    const n = this.docs.length;
    const scored: { doc: Doc; score: number }[] = [];
    for (const doc of this.docs) {
      let score = 0;
      for (const [term, weight] of q) {
        const df = this.df.get(term);
        if (!df) continue;
        let tf = 0;
        for (const f of Object.keys(FIELDS) as Field[]) {
          const raw = doc.tf[f].get(term);
          if (!raw) continue;
          const { weight: w, b } = FIELDS[f];
          tf += (w * raw) / (1 - b + (b * doc.len[f]) / this.avg[f]);
        }
        if (tf === 0) continue;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += weight * idf * (tf / (K1 + tf));
      }
      if (score > 0 && doc.item.generic) score *= GENERIC_PRIOR;
      if (score > 0 && allowed(doc.item.tool, doc.item.readOnly)) scored.push({ doc, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.doc.item.tool.name < b.doc.item.tool.name ? -1 : 1));
    return scored.slice(0, limit).map(({ doc, score }) => ({
      name: doc.item.tool.name,
      title: doc.item.tool.title ?? doc.item.tool.annotations?.title ?? doc.item.tool.name,
      summary: doc.summary,
      read_only: doc.item.readOnly,
      score: Math.round(score * 1000) / 1000,
    }));
  }
}

/** `freezone_treasuryoperationsservice_get_exchange_quote` -> "treasury operations get exchange quote". */
export function nameWords(name: string, vocabulary: Set<string>): string {
  const parts = name.split("_").slice(1);
  const service = (parts[0] ?? "").replace(/service$/, "");
  return [...segment(service, vocabulary), ...parts.slice(1)].join(" ");
}
