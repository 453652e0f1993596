import { type DiagnosticCode, type Severity, severityOf } from "./diagnostic-codes.ts";

/**
 * A problem found in the spec: a code of the catalogue (diagnostic-codes.ts), its severity, the spec file, a JSON
 * pointer into it and, once located (locate.ts), the line and column the pointer names.
 */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  file: string;
  pointer: string;
  message: string;
  line?: number;
  column?: number;
}

export class SpecError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "SpecError";
  }
}

/** `file:line:column#pointer: error code: message` (line and column when located). */
export function formatDiagnostic(d: Diagnostic): string {
  const at = d.line === undefined ? "" : `:${d.line}:${d.column ?? 1}`;
  return `${d.file}${at}#${d.pointer}: ${d.severity} ${d.code}: ${d.message}`;
}

export function pointer(...parts: (string | number)[]): string {
  return parts.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Collects diagnostics; `throwIfAny` stops the pipeline after a phase. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];
  add(code: DiagnosticCode, file: string, ptr: string, message: string, at?: { line: number; column: number }): void {
    this.items.push({ code, severity: severityOf(code), file, pointer: ptr, message, ...at });
  }
  throwIfAny(): void {
    if (this.items.length > 0) throw new SpecError(this.items);
  }
}
