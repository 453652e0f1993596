import { RpcFailure } from "./api.ts";
import { type Child, h, put } from "./dom.ts";

/** An error shown in place, next to the form that caused it: code, type.variant, message (and ajv details). */
export function errorView(err: unknown): HTMLElement {
  const failure = err instanceof RpcFailure ? err : new RpcFailure({ code: 0, message: String(err) });
  const name = [failure.data?.type, failure.data?.variant].filter(Boolean).join(".");
  const details = failure.data?.["errors"];
  return h(
    "div",
    { class: "error", role: "alert" },
    h("p", {}, h("strong", {}, `Error ${failure.code}`), name ? ` ${name}` : "", `: ${failure.message}`),
    details ? h("pre", { tabindex: 0 }, JSON.stringify(details, null, 2)) : null,
  );
}

/** A status region for one form: `busy`, `fail(err)`, `done(...)`. */
export function statusRegion() {
  const el = h("div", { class: "status", "aria-live": "polite" });
  return {
    el,
    busy: (text = "Working…") => put(el, h("p", { class: "muted" }, text)),
    fail: (err: unknown) => put(el, errorView(err)),
    done: (...children: Child[]) => put(el, ...children),
    clear: () => put(el),
  };
}

/** Runs a form's action with its button disabled; the form's content is never touched. */
export function onSubmit(form: HTMLFormElement, action: () => Promise<void>): void {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = [...form.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    try {
      await action();
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  });
}

/** A table with a caption and header row; each row a list of cells. */
export function table(caption: string, headers: string[], rows: Child[][]): HTMLElement {
  if (rows.length === 0) return h("p", { class: "muted" }, `${caption}: none.`);
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          headers.map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((cells) =>
          h(
            "tr",
            {},
            cells.map((c) => h("td", {}, c)),
          ),
        ),
      ),
    ),
  );
}

/** A page's frame: its h1 first (focused on navigation), then sections. */
export function page(title: string, ...children: Child[]): HTMLElement[] {
  return [h("h1", { tabindex: "-1" }, title), ...(children.flat() as HTMLElement[])];
}

/** Pretty JSON text for a pre block; non-JSON text as is. */
export function pretty(text: string | null | undefined): string {
  if (text === null || text === undefined || text === "") return "—";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
