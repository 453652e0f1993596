import { HEADER } from "../derive.ts";
import type { SpecModel } from "../model.ts";
import type { GeneratedFile } from "../write.ts";

/** Error codes, variants and types from spec/errors.json. */
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
  return [{ path: "generated/codes.ts", content }];
}
