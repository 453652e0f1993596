import { HEADER } from "../derive.ts";
import type { SpecModel } from "../model.ts";
import type { GeneratedFile } from "../write.ts";

/** Per service, every error type and the variants some method of that service declares for it in `x-errors`. */
function serviceErrors(model: SpecModel): string {
  const lines = model.services.map((s) => {
    const declared = new Map<string, Set<string>>();
    for (const m of s.methods) {
      for (const [type, variants] of Object.entries(m.errors)) {
        const set = declared.get(type) ?? new Set<string>();
        for (const v of variants) set.add(v);
        declared.set(type, set);
      }
    }
    const types = [...declared].map(([type, set]) => `${type}: ${JSON.stringify([...set])}`);
    return `  ${s.name}: { ${types.join(", ")} },`;
  });
  return [
    HEADER,
    "",
    "/**",
    " * What each service may raise: per error type, the union of the variants its methods declare in `x-errors`.",
    " * `errorsFor` (src/rpc/service-errors.ts) types a service's error factory from it; the dispatcher checks each",
    " * call against the method's own list in the registry.",
    " */",
    "export const SERVICE_ERRORS = {",
    ...lines,
    "} as const;",
    "",
    "export type ServiceErrors = typeof SERVICE_ERRORS;",
    "",
  ].join("\n");
}

/** Error codes, variants and types from spec/errors.json; the errors each service declares. */
export function emitCodes(model: SpecModel): GeneratedFile[] {
  const variants = model.errorCodes.flatMap((c) => c.variants.map((v) => [v, c] as const));
  const types = [...model.errorTypes, "RecordError"];
  const content = [
    HEADER,
    "",
    "/** JSON-RPC error codes: the standard ones and the application classes of API.md. */",
    "export const ErrorCode = {",
    "  ParseError: -32700,",
    "  InvalidRequest: -32600,",
    "  MethodNotFound: -32601,",
    "  InvalidParams: -32602,",
    "  InternalError: -32603,",
    ...model.errorCodes.map((c) => `  ${c.name}: ${c.code},`),
    "} as const;",
    "",
    `export type ErrorVariant =\n${variants.map(([v]) => `  | ${JSON.stringify(v)}`).join("\n")};`,
    "",
    `export type ErrorType =\n${types.map((t) => `  | ${JSON.stringify(t)}`).join("\n")};`,
    "",
    "/** The code each variant is answered with. */",
    "export const VARIANT_CODE: Record<ErrorVariant, number> = {",
    ...variants.map(([v, c]) => `  ${v}: ${c.code},`),
    "};",
    "",
    "/** The default human message of each code class. */",
    "export const CODE_MESSAGE: Record<number, string> = {",
    ...model.errorCodes.map((c) => `  [${c.code}]: ${JSON.stringify(c.message)},`),
    "};",
    "",
  ].join("\n");
  return [
    { path: "generated/codes.ts", content },
    { path: "generated/errors.ts", content: serviceErrors(model) },
  ];
}
