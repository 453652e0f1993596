import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import { PROJECT_ROOT } from "../project-root.ts";

const GENERATED = join(PROJECT_ROOT, "generated");

/** The generated documents, read once per process ("all" and one per domain). */
let generated: Map<string, Record<string, unknown>> | null = null;
/** The served documents of each base URL: built once per base URL, shared by the apps that use it. */
const served = new Map<string, Map<string, unknown>>();

function generatedDocuments(): Map<string, Record<string, unknown>> {
  if (generated) return generated;
  generated = new Map();
  for (const name of ["all", ...DOMAINS]) {
    generated.set(name, JSON.parse(readFileSync(join(GENERATED, "openrpc", `${name}.json`), "utf8")));
  }
  return generated;
}

/** The path of a document's endpoint: `/rpc` for "all", `/<context>/<domain>/rpc` for a domain. */
const endpointPath = (scope: string): string => (scope === "all" ? "/rpc" : `/${CONTEXT}/${scope}/rpc`);

/**
 * The served OpenRPC documents, "all" and one per domain, whose `servers` URL is `publicBaseUrl` (configuration,
 * never the request's Host header) plus the endpoint's path. The generated files carry a placeholder server.
 */
export function openrpcDocuments(publicBaseUrl: string): Map<string, unknown> {
  const known = served.get(publicBaseUrl);
  if (known) return known;
  const docs = new Map<string, unknown>();
  for (const [scope, doc] of generatedDocuments()) {
    docs.set(scope, { ...doc, servers: [{ name: "rpc", url: `${publicBaseUrl}${endpointPath(scope)}` }] });
  }
  served.set(publicBaseUrl, docs);
  return docs;
}
