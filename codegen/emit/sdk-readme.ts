import type { SdkMethod, SdkModel } from "./sdk-model.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const member = (name: string) => (IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

/** `client.<ns>.<op>({ a, b })` for a method of the API, as the README's first call. */
function callOf(m: SdkMethod): string {
  const required = m.params.filter((p) => p.required).map((p) => p.name);
  return `client${member(m.namespace)}${member(m.op)}(${required.length ? `{ ${required.join(", ")} }` : ""})`;
}

function firstCalls(model: SdkModel): string {
  const login = model.methods.find((m) => m.op === "login" && m.namespace === model.refresh?.method.split(".")[0]);
  const create =
    model.methods.find((m) => m.name === "residentservice.create") ?? model.methods.find((m) => !m.readOnly);
  const lines = [
    `const client = createClient({ url: ${JSON.stringify(model.serverUrl ?? "https://api.example/rpc")} });`,
  ];
  if (login) {
    lines.push(`const session = await ${callOf(login)};`, `if ("access_token" in session) client.useSession(session);`);
  }
  if (create) lines.push(`const created = await ${callOf(create)};`);
  return lines.join("\n");
}

/** The package's README: what it is, how to build it, a first call, auth, errors, batches. */
export function sdkReadme(model: SdkModel, name: string, version: string, source: string): string {
  const namespaces = new Set(model.methods.map((m) => m.namespace)).size;
  const reads = model.methods.filter((m) => m.readOnly).length;
  const refresh = model.refresh
    ? `On \`TokenExpired\` the client calls \`${model.refresh.method}\` once with the refresh token, keeps the new tokens (\`onSessionRefreshed\` tells you) and sends the call again.`
    : "This API has no refresh method: an expired session surfaces as its error.";
  return `# ${name} ${version}

Typed JSON-RPC client for **${model.title}**: ${model.methods.length} methods in ${namespaces} namespaces, generated
from ${source} by \`npm run sdk\`. Do not edit: regenerate. No runtime dependencies (it needs \`fetch\`).

## Build and install

\`\`\`sh
npm install && npm run build   # tsc -> dist/ (JavaScript and .d.ts)
npm pack                       # ${name.replace("@", "").replace("/", "-")}-${version}.tgz, installable anywhere
\`\`\`

## Use

\`\`\`ts
import { createClient, isMethodError } from "${name}";

${firstCalls(model)}
\`\`\`

Each service is a namespace and each operation keeps its wire name: \`client.<service>.<operation>(params, { signal })\`.
Params and results are typed from the component schemas; enumerations are string unions.

## Credentials

\`createClient({ url, credentials: { apiKey } })\` sends \`X-API-Key\`; \`{ accessToken, refreshToken }\` (or
\`client.useSession(authResult)\`) sends \`Authorization: Bearer\`. One credential at a time; \`setCredentials(null)\`
signs out. ${refresh}

## Errors

Every failure is a \`FreezoneRpcError\` with \`code\`, \`type\`, \`variant\`, \`data\` and \`method\`. The client's own
failures have \`type: "TransportError"\` (\`NetworkError\`, \`HttpError\`, \`InvalidResponse\`); an aborted call rejects
with the signal's reason. \`isMethodError(err, "residentservice.create")\` narrows \`variant\` to what that method
declares plus the variants any call may meet (\`CommonVariant\`).

## Retries

Calls are retried up to 3 attempts with exponential backoff and jitter on network failures, HTTP 502/503/504 and
the refusals that give \`retry_after_s\` (\`RateLimited\`, \`DatabaseBusy\`, \`DatabaseUnavailable\`,
\`ShuttingDown\`, \`IdempotencyKeyInUse\`), which is honoured. Every write (the methods that are not among the
${reads} read-only ones) is sent with an \`Idempotency-Key\` header, a new UUID per call and the same one on each of its
attempts: the server runs the write once per key and answers a retry with the first call's answer (kept 24 hours),
so a write that met a network failure is retried without running twice. Pass \`{ idempotencyKey }\` in a call's
options to keep the key with your own record of the work and retry it after a restart. The same key with another
request is refused (\`IdempotencyKeyReused\`). A batch is retried only when all its calls are reads.
Options: \`retry: { attempts, baseDelayMs, maxDelayMs }\`.

## Lists

${listsSection(model)}

## Batches

\`\`\`ts
${batchExample(model)}
\`\`\`

One HTTP request; each entry settles on its own (\`{ ok: true, result }\` or \`{ ok: false, error }\`), typed per entry.
`;
}

function batchExample(model: SdkModel): string {
  const reads = model.methods.filter((m) => m.readOnly).slice(0, 2);
  const names = reads.map((_, i) => `r${i + 1}`);
  const entries = reads.map((m) => callOf(m).replace(/^client/, "b"));
  return [
    `const [${names.join(", ")}] = await client.batch((b) => [${entries.join(", ")}]);`,
    `if (${names[0] ?? "r1"}.ok) console.log(${names[0] ?? "r1"}.result);`,
  ].join("\n");
}

const STYLE_TEXT = {
  cursor: "sends the previous page's `next_cursor` as `cursor` until it is null; `limit` sets the page size",
  page: "counts `page` up from 1 (or the `page` given) until `total` items were seen or a page comes back short",
  offset: "advances `offset` by each page's length until a page comes back short or empty; `limit` sets the page size",
} as const;

/** The iterators, and each style's server defaults as the lists' own page-size params say them. */
function listsSection(model: SdkModel): string {
  const paged = model.methods.filter((m) => m.pagination);
  if (paged.length === 0) return "This API has no paged lists.";
  const example = paged.find((m) => m.pagination?.style === "page") ?? paged[0]!;
  const rows = (["cursor", "page", "offset"] as const).flatMap((style) => {
    const lists = paged.filter((m) => m.pagination?.style === style);
    if (lists.length === 0) return [];
    const sizes = new Map<string, number>();
    for (const m of lists) {
      const size = m.params.find((p) => p.name === "limit" || p.name === "page_size");
      const text = size ? `\`${size.name}\`: ${size.description ?? "no description"}` : "no page-size param";
      sizes.set(text, (sizes.get(text) ?? 0) + 1);
    }
    const defaults = [...sizes].map(([text, n]) => `${text} (${n})`).join("; ");
    return [`| ${style} | ${lists.length} | ${STYLE_TEXT[style]} | ${defaults} |`];
  });
  return [
    `Every list (${paged.length} here) has an async iterator beside it, named \`<operation>_all\`, that yields the items`,
    "of all its pages, one call per page (each retried like any read), and stops when the loop breaks:",
    "",
    "```ts",
    `for await (const item of client${member(example.namespace)}${member(`${example.op}_all`)}({})) console.log(item);`,
    "```",
    "",
    "It takes the list's params without the one it sets itself (`cursor`, `page` or `offset`). Lists page in one of",
    "three styles; the server's page sizes and defaults, as each list's page-size param states them (number of lists):",
    "",
    "| style | lists | how the iterator follows it | page size and default |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
