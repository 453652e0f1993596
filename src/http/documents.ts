import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { PUBLIC_CORS } from "./cors.ts";

/**
 * How a served JSON document (the OpenRPC documents: src/app/openrpc.ts) goes on the wire: its text serialized once,
 * its bytes compressed once per encoding, its ETag. Shared by GET /api/v1/openrpc.json, rpc.discover and the MCP
 * resources, so all three answer the same bytes.
 */

/** Each served document's JSON text, made on first use and kept while the document lives. */
const texts = new WeakMap<object, string>();

/** A served document as JSON text, serialized once (the whole document is about 1 MB). */
export function openrpcText(doc: object): string {
  let text = texts.get(doc);
  if (text === undefined) {
    text = JSON.stringify(doc);
    texts.set(doc, text);
  }
  return text;
}

/** A served document's bytes as answered: identity, and gzip / brotli made on first request of each. */
interface DocumentBytes {
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

const bytes = new WeakMap<object, DocumentBytes>();

function bytesOf(doc: object): DocumentBytes {
  let known = bytes.get(doc);
  if (!known) {
    const identity = Buffer.from(openrpcText(doc), "utf8");
    known = { identity, etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 32)}"` };
    bytes.set(doc, known);
  }
  return known;
}

/** The encodings a client accepts (Accept-Encoding), ignoring those it refuses with q=0. */
function accepts(header: string | undefined, coding: string): boolean {
  return (header ?? "").split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    return name === coding && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

function encoded(doc: DocumentBytes, acceptEncoding: string | undefined): { body: Buffer; encoding: string | null } {
  if (accepts(acceptEncoding, "br")) {
    // Quality 5: within a few percent of 11 for JSON, and tens of milliseconds instead of seconds on first use.
    doc.br ??= brotliCompressSync(doc.identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
    return { body: doc.br, encoding: "br" };
  }
  if (accepts(acceptEncoding, "gzip")) {
    doc.gzip ??= gzipSync(doc.identity, { level: 9 });
    return { body: doc.gzip, encoding: "gzip" };
  }
  return { body: doc.identity, encoding: null };
}

/**
 * The HTTP answer of a served document (issue 32 item 9): compressed when the client accepts it (br, then gzip),
 * with a strong ETag of its bytes (If-None-Match answers 304), readable from any origin (CORS `*`, never
 * credentials), and revalidated on each use (the document changes when the instance is upgraded).
 */
export function documentAnswer(
  doc: object,
  header: (name: string) => string | undefined,
): { status: number; body: Buffer | null; headers: Record<string, string> } {
  const known = bytesOf(doc);
  const headers: Record<string, string> = {
    ...PUBLIC_CORS,
    etag: known.etag,
    vary: "Accept-Encoding",
    "cache-control": "no-cache",
  };
  const tags = (header("if-none-match") ?? "").split(",").map((tag) => tag.trim());
  if (tags.includes(known.etag) || tags.includes("*")) {
    return { status: 304, body: null, headers };
  }
  const { body, encoding } = encoded(known, header("accept-encoding"));
  if (encoding) headers["content-encoding"] = encoding;
  return { status: 200, body, headers: { ...headers, "content-type": "application/json" } };
}
