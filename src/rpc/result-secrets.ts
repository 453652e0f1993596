/**
 * The one output rule for secrets inside embedded schemas (spec `x-secret: true` on a property, codegen
 * secrets.ts): every result of a method whose result schema can hold one has it set to null at each declared path
 * (`*`: every item of an array or value of an object). Copies what it changes, so a value the handler shares is
 * never altered. Pure.
 */
export function redactResultSecrets(value: unknown, paths: readonly (readonly string[])[]): unknown {
  let out = value;
  for (const path of paths) out = nullAt(out, path, 0);
  return out;
}

function nullAt(value: unknown, path: readonly string[], i: number): unknown {
  if (value === null || typeof value !== "object") return value;
  const key = path[i] as string;
  const last = i === path.length - 1;
  if (Array.isArray(value)) {
    if (key !== "*") return value;
    return value.map((item) => (last ? item : nullAt(item, path, i + 1)));
  }
  const record = value as Record<string, unknown>;
  if (key === "*") {
    const copy: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(record)) copy[k] = last ? null : nullAt(item, path, i + 1);
    return copy;
  }
  if (!(key in record)) return value;
  return { ...record, [key]: last ? null : nullAt(record[key], path, i + 1) };
}
