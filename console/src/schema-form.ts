/**
 * A generic form from JSON Schema (the params of an OpenRPC method): strings, numbers and integers as inputs,
 * booleans and enums as selects (with "not set" unless required), objects as nested fieldsets, arrays and
 * anything else as a JSON textarea. `$ref`s are resolved in the method's document; `anyOf [X, null]` is X.
 * Each field reads back to a value, or `undefined` when left empty (then it is not sent).
 */
import { field, h, uid } from "./dom.ts";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string | undefined;
  format?: string;
  default?: unknown;
  [key: string]: unknown;
};

export class InputError extends Error {}

/** A control that reads back to a value. */
export interface Control {
  el: HTMLElement;
  read(): unknown;
}

const MAX_DEPTH = 4;

export function resolve(schema: Schema, doc: { components?: { schemas?: Record<string, Schema> } }): Schema {
  let s = schema;
  for (let i = 0; i < 10 && s.$ref; i++) {
    const name = s.$ref.split("/").pop() ?? "";
    s = {
      ...doc.components?.schemas?.[name],
      description: s.description ?? doc.components?.schemas?.[name]?.description,
    };
  }
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const notNull = alternatives.filter((a) => a.type !== "null");
    if (notNull.length === 1 && notNull[0]) return { ...resolve(notNull[0], doc), description: s.description };
  }
  return s;
}

const mainType = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

/** The control for one value: `label` names it, `required` decides whether it may be left unset. */
export function controlFor(
  label: string,
  raw: Schema,
  required: boolean,
  doc: Parameters<typeof resolve>[1],
  depth = 0,
): Control {
  const s = resolve(raw, doc);
  const type = mainType(s);
  const hint = [s.description, s.format ? `format: ${s.format}` : ""].filter(Boolean).join(" · ") || undefined;
  const shown = required ? `${label} (required)` : label;

  if (s.enum || type === "boolean") {
    const values = s.enum ?? [true, false];
    const select = h(
      "select",
      { name: label },
      required ? null : h("option", { value: "" }, "— not set —"),
      values.map((v, i) => h("option", { value: String(i) }, String(v))),
    );
    return {
      el: field(shown, select, hint),
      read: () => (select.value === "" ? undefined : values[Number(select.value)]),
    };
  }
  if (type === "string" || type === "number" || type === "integer") {
    const numeric = type !== "string";
    const input = h("input", {
      type: numeric ? "number" : "text",
      name: label,
      step: type === "number" ? "any" : null,
      required,
    });
    return {
      el: field(shown, input, hint),
      read: () => {
        if (input.value === "") return undefined;
        if (!numeric) return input.value;
        const n = Number(input.value);
        if (!Number.isFinite(n)) throw new InputError(`${label}: not a number`);
        return n;
      },
    };
  }
  if (type === "object" && s.properties && depth < MAX_DEPTH) {
    const needed = new Set(s.required ?? []);
    const children = Object.entries(s.properties).map(
      ([name, sub]) => [name, controlFor(name, sub, needed.has(name), doc, depth + 1)] as const,
    );
    const legendId = uid("legend");
    return {
      el: h(
        "fieldset",
        { "aria-labelledby": legendId },
        h("legend", { id: legendId }, shown),
        hint ? h("p", { class: "hint" }, hint) : null,
        children.map(([, c]) => c.el),
      ),
      read: () => {
        const out: Record<string, unknown> = {};
        for (const [name, c] of children) {
          const v = c.read();
          if (v !== undefined) out[name] = v;
        }
        return Object.keys(out).length === 0 && !required ? undefined : out;
      },
    };
  }
  // Arrays, free-form objects, unions: JSON text.
  const area = h("textarea", {
    name: label,
    rows: 3,
    spellcheck: "false",
    placeholder: type === "array" ? "[]" : "{}",
  });
  return {
    el: field(`${shown} (JSON)`, area, hint),
    read: () => {
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new InputError(`${label}: not valid JSON`);
      }
    },
  };
}

export interface Param {
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

/**
 * The controls of a method's by-name params; `read()` answers the params object. The caller-bound param
 * (`x-caller-binding`, e.g. `user_id`) is required in the spec but filled by the server from the session when
 * omitted: its field may stay empty.
 */
export function paramsForm(params: Param[], doc: Parameters<typeof resolve>[1], callerBound?: string): Control {
  const controls = params.map((p) => {
    const schema = p.schema.description || !p.description ? p.schema : { ...p.schema, description: p.description };
    const bound = p.name === callerBound;
    const label = bound ? `${p.name} (filled from your session when empty)` : p.name;
    return [p.name, controlFor(label, schema, p.required === true && !bound, doc)] as const;
  });
  return {
    el: h("div", { class: "params" }, controls.length ? controls.map(([, c]) => c.el) : h("p", {}, "No params.")),
    read: () => {
      const out: Record<string, unknown> = {};
      for (const [name, c] of controls) {
        const v = c.read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}
