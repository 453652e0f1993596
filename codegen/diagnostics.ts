/** A problem found in the spec: a stable kebab-case code, the spec file and a JSON pointer into it. */
export interface Diagnostic {
  code: string;
  file: string;
  pointer: string;
  message: string;
}

export class SpecError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "SpecError";
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}#${d.pointer}: error ${d.code}: ${d.message}`;
}

export function pointer(...parts: (string | number)[]): string {
  return parts.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Collects diagnostics; `throwIfAny` stops the pipeline after a phase. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];
  add(code: string, file: string, ptr: string, message: string): void {
    this.items.push({ code, file, pointer: ptr, message });
  }
  throwIfAny(): void {
    if (this.items.length > 0) throw new SpecError(this.items);
  }
}
