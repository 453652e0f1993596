import { readFile } from "node:fs/promises";

/** An OpenRPC document from an http(s) URL or a file path, parsed. */
export async function readDocument(from: string, fetchImpl: typeof fetch = fetch): Promise<unknown> {
  if (/^https?:\/\//.test(from)) {
    const res = await fetchImpl(from, { headers: { accept: "application/json" } });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return JSON.parse(await res.text());
  }
  return JSON.parse(await readFile(from, "utf8"));
}
