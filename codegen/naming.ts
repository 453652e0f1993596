export function camelCase(name: string): string {
  return name.replace(/[_.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function pascalCase(name: string): string {
  const camel = camelCase(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

export function kebabCase(name: string): string {
  return snakeCase(name).replaceAll("_", "-");
}

export const REF_PREFIX = "#/components/schemas/";

export function refName(ref: string): string | null {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
}

/** The identifier json-schema-to-typescript gives a schema name (it upper-cases a letter after digits). */
export function tsTypeName(name: string): string {
  return name.replace(/(\d+[a-zA-Z])/g, (m) => m.toUpperCase());
}
