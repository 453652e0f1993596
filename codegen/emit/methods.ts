import { HEADER, paramsTypeName } from "../derive.ts";
import type { MethodModel, RecordModel, SpecModel } from "../model.ts";
import { tsTypeName } from "../naming.ts";
import type { GeneratedFile } from "../write.ts";

const union = (names: string[]): string => (names.length ? names.map((n) => JSON.stringify(n)).join(" | ") : "never");

/** The result as it leaves the server: a record's secret and private fields never do (derive.ts publicRecordSchema). */
function resultType(m: MethodModel, records: Map<string, RecordModel>): string {
  const name = tsTypeName(m.result);
  const record = records.get(m.result);
  const hidden = record ? [...record.secret, ...record.private] : [];
  return hidden.length ? `Omit<${name}, ${union(hidden)}>` : name;
}

/**
 * Every wire name (aliases too) -> its params type, its result type and the params the server binds to the
 * caller (`callerBound`, `never` when none): a typed client for tests and tools, checked by tsc against the spec.
 */
export function emitMethods(model: SpecModel): GeneratedFile[] {
  const records = new Map(model.records.map((r) => [r.name, r]));
  const types = new Set<string>();
  const lines: string[] = [];
  for (const m of model.methods) {
    const params = tsTypeName(paramsTypeName(m));
    types.add(params);
    types.add(tsTypeName(m.result));
    const entry = `{ params: ${params}; result: ${resultType(m, records)}; callerBound: ${union(m.callerBinding ? [m.callerBinding.param] : [])} }`;
    for (const name of [m.name, ...m.aliases]) lines.push(`  ${JSON.stringify(name)}: ${entry};`);
  }
  const content = [
    HEADER,
    `import type { ${[...types].sort().join(", ")} } from "./types.ts";`,
    "",
    "/** Every method the registry serves, by wire name (aliases too). */",
    "export interface MethodMap {",
    ...lines,
    "}",
    "",
    "export type MethodName = keyof MethodMap;",
    "",
  ].join("\n");
  return [{ path: "generated/methods.ts", content }];
}
