/**
 * Every diagnostic codegen reports (issue 32 item 3), one catalogue in the manner of TypeSpec's
 * `createDiagnosticCreator`: a stable kebab-case code, its severity and what it means. `Diagnostics.add` takes only
 * these codes (a typo is a type error), docs/spec-format.md lists them from here, and
 * test/codegen/diagnostic-codes.pure.test.ts proves each one is produced by a test. Every code is an error today:
 * codegen writes nothing while one stands.
 */
export type Severity = "error" | "warning";

interface CodeInfo {
  severity: Severity;
  /** What is wrong, in one line, for the catalogue (the reported message says it about the case at hand). */
  summary: string;
}

const error = (summary: string): CodeInfo => ({ severity: "error", summary });

export const DIAGNOSTIC_CODES = {
  "invalid-json": error("the file is not valid JSON, or not a JSON object (line and column given)"),
  "invalid-openrpc": error("a service document, or a served document, is rejected by the OpenRPC meta-schema"),
  "invalid-platform": error("spec/platform.json is malformed (the context must be one lower-case word)"),
  "description-cites-source": error("a summary, description or title names a repository file"),
  "unknown-extension": error("an x- key codegen does not know at that place"),
  "invalid-extension-value": error("an x- value of the wrong shape or outside its enumeration"),
  "unknown-ref": error("a $ref (a result's included) to a schema no file defines"),
  "duplicate-schema-name": error("two files define a schema of the same name"),
  "unknown-domain": error("a record's x-domain that spec/platform.json does not have"),
  "service-file-missing": error("spec/platform.json names a service with no spec/services file"),
  "service-not-in-platform": error("a service file that spec/platform.json does not list"),
  "service-title-invalid": error("a service's info.title is not <Name>Service"),
  "service-domain-mismatch": error("a service's x-domain differs from the domain spec/platform.json puts it in"),
  "service-version-mismatch": error("a service's info.version differs from the platform's"),
  "method-name-invalid": error("a method name outside its service's lower-case prefix"),
  "duplicate-method-name": error("two methods of the same name"),
  "duplicate-tool-name": error("two methods whose MCP tool names collide"),
  "mcp-name-too-long": error("a method's MCP tool name is over 64 characters"),
  "missing-auth": error("a method without x-auth"),
  "invalid-auth": error("an x-auth that is not a known mode"),
  "result-not-named": error("a method result that is not a $ref to a named schema"),
  "result-not-object": error("a method result whose schema is not an object"),
  "duplicate-param-name": error("a param name that appears twice in one method"),
  "optional-param-before-required": error("a required param after an optional one"),
  "unmappable-type": error("a schema codegen cannot map to a TypeScript type"),
  "unknown-param": error("an extension naming a param the method does not have"),
  "unknown-field": error("an extension naming a field the record does not have"),
  "unknown-error-type": error("x-errors naming an error type spec/errors.json does not define"),
  "unknown-error-variant": error("x-errors naming a variant its error type does not have"),
  "unknown-audit-action": error("x-audit naming an action outside AuditAction"),
  "unknown-audit-target-type": error("x-audit naming a target type outside AuditTargetType"),
  "spends-read-only": error("x-spends on a method whose x-mcp says it is read-only"),
  "secret-not-nullable": error("an x-secret property whose type does not admit null"),
  "record-title-missing": error("a record without a title"),
  "record-declares-sid": error("a record that declares sid, created_at or updated_at (codegen adds them)"),
  "record-field-not-required": error("a record property missing from required"),
  "invalid-crud-mode": error("an x-crud that is not none, read, owner or admin"),
  "invalid-crud-scope": error("an x-crud-scope that is not an object of scalar values"),
  "invalid-money": error("an x-money on a field that is not a number"),
  "invalid-decimal": error("an x-decimal that is not a number of decimals, or on a non-number"),
  "numeric-conflict": error("a field with both x-money and x-decimal"),
  "numeric-not-number": error("a numeric extension on a field that is not a number"),
  "invalid-unique-where": error("an x-unique-where that is not a condition on the record's fields"),
  "invalid-target": error("an x-target that is malformed"),
  "invalid-target-field": error("an x-target naming a field the target record lacks or cannot look up by"),
  "unknown-target-record": error("an x-target naming a record that does not exist"),
  "target-auth": error("an x-target on a method whose x-auth cannot carry a caller"),
  "target-variant": error("an x-target or x-visibility whose refusal variant the method does not declare"),
  "target-without-company": error("an x-company role requirement without a target that belongs to a company"),
  "invalid-company-link": error("an x-company link that is malformed"),
  "unknown-company-role": error("an x-company naming a role outside CompanyRoleKind"),
  "invalid-acts-as": error("an x-acts-as that is malformed"),
  "invalid-visibility": error("an x-visibility that is malformed"),
  // ---- `npm run cli -- spec diff` (tools/spec-diff/): reading the two contracts it compares ----
  "not-a-spec": error("spec diff: the path is neither a spec/ directory, a project root nor an OpenRPC document"),
  "no-spec-at-ref": error("spec diff: the git ref has no spec/ directory"),
  "fetch-failed": error("spec diff: the served document could not be fetched"),
  "not-found": error("spec diff: the file or directory does not exist"),
  "invalid-document": error("spec diff: the document is not an OpenRPC document"),
  "invalid-method": error("spec diff: a method entry without a name"),
  "invalid-params": error("spec diff: a method's params is not a list"),
  "invalid-param": error("spec diff: a param entry without a name or schema"),
  "invalid-result": error("spec diff: a method's result without a schema"),
  "invalid-errors": error("spec diff: a method's x-errors is malformed"),
  "duplicate-method": error("spec diff: two methods of the same name in one contract"),
  "unresolved-ref": error("spec diff: a $ref the contract does not define"),
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

export function severityOf(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code].severity;
}
