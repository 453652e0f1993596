import { CONTEXT, DOMAINS } from "../../../generated/policy.ts";
import { call } from "../api.ts";
import { copy, field, h, put } from "../dom.ts";
import { type Control, InputError, type Param, paramsForm, type Schema } from "../schema-form.ts";
import { errorView, onSubmit, page, statusRegion } from "../ui.ts";

interface Method {
  name: string;
  summary?: string;
  description?: string;
  tags?: { name: string }[];
  params: Param[];
  "x-internal"?: boolean;
  errors?: { code: number; message: string; data?: unknown }[];
  "x-auth"?: string;
  "x-caller-binding"?: { param: string };
}
interface Doc {
  servers?: { url: string }[];
  methods: Method[];
  components?: { schemas?: Record<string, Schema> };
}

/** The served OpenRPC document of one domain (GET, the same the server gives any client), kept for the tab. */
const docs = new Map<string, Promise<Doc>>();
function domainDoc(domain: string): Promise<Doc> {
  let doc = docs.get(domain);
  if (!doc) {
    doc = fetch(`/api/v1/${CONTEXT}/${domain}/openrpc.json`).then((r) => {
      if (!r.ok) throw new Error(`the ${domain} document answered HTTP ${r.status}`);
      return r.json() as Promise<Doc>;
    });
    docs.set(domain, doc);
    doc.catch(() => docs.delete(domain));
  }
  return doc;
}

const endpoint = (domain: string) => `/${CONTEXT}/${domain}/rpc`;

/** `curl` for a call: the document's public server URL, the token left as a shell variable (never copied). */
export function curlFor(url: string, method: string, params: unknown): string {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }).replaceAll("'", "'\\''");
  return `curl -sS '${url}' -H 'content-type: application/json' -H "authorization: Bearer $FZ_TOKEN" -d '${body}'`;
}

/**
 * What the explorer lists: the services' operations, never an internal one (no caller may reach it); the generic
 * record operations (`<record>.get`, `.find`...) only when asked for, as they are raw tables beside the services.
 */
function listed(m: Method, records: boolean): boolean {
  if (m["x-internal"]) return false;
  return records || m.name.slice(0, m.name.indexOf(".")).endsWith("service");
}

export async function explorerPage(main: HTMLElement): Promise<void> {
  const domainSelect = h(
    "select",
    { name: "domain" },
    DOMAINS.map((d) => h("option", { value: d }, d)),
  );
  const serviceSelect = h("select", { name: "service" });
  const filter = h("input", { type: "search", name: "filter", placeholder: "e.g. invoice, list" });
  const showRecords = h("input", { type: "checkbox", name: "records" });
  const methodList = h("ul", { class: "methods", "aria-label": "Methods" });
  const detail = h(
    "section",
    { class: "card method", "aria-label": "Method" },
    h("p", { class: "muted" }, "Pick a method."),
  );
  let doc: Doc | null = null;

  const showMethods = () => {
    if (!doc) return;
    const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    // A search looks through every service shown (name and summary); without one, the chosen service's methods.
    const methods = doc.methods.filter((m) =>
      words.length > 0
        ? listed(m, showRecords.checked) && words.every((w) => `${m.name} ${m.summary ?? ""}`.toLowerCase().includes(w))
        : (m.tags?.[0]?.name ?? "") === serviceSelect.value && listed(m, showRecords.checked),
    );
    if (methods.length === 0) {
      put(methodList, h("li", { class: "muted" }, "No method matches."));
      return;
    }
    put(
      methodList,
      methods.map((m) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "link", onclick: () => showMethod(detail, doc!, domainSelect.value, m) },
            m.name,
          ),
          m.summary ? h("span", { class: "muted" }, ` ${m.summary}`) : null,
        ),
      ),
    );
  };
  const loadDomain = async () => {
    put(methodList, h("li", { class: "muted" }, "Loading…"));
    try {
      doc = await domainDoc(domainSelect.value);
    } catch (err) {
      put(methodList, h("li", {}, errorView(err)));
      return;
    }
    const shown = doc.methods.filter((m) => listed(m, showRecords.checked));
    const services = [...new Set(shown.map((m) => m.tags?.[0]?.name ?? ""))].sort();
    put(
      serviceSelect,
      services.map((s) => h("option", { value: s }, s)),
    );
    showMethods();
  };
  domainSelect.addEventListener("change", () => void loadDomain());
  serviceSelect.addEventListener("change", showMethods);
  filter.addEventListener("input", showMethods);
  showRecords.addEventListener("change", () => void loadDomain());

  put(
    main,
    ...page(
      "API explorer",
      h(
        "div",
        { class: "explorer" },
        h(
          "nav",
          { class: "card", "aria-label": "Services and methods" },
          h("h2", {}, "Methods"),
          field("Domain", domainSelect),
          field("Service", serviceSelect),
          field("Search all services", filter),
          field("Show generic record operations", showRecords),
          methodList,
        ),
        detail,
      ),
    ),
  );
  await loadDomain();
}

function showMethod(detail: HTMLElement, doc: Doc, domain: string, m: Method): void {
  let form: Control;
  try {
    form = paramsForm(m.params, doc, m["x-caller-binding"]?.param);
  } catch (err) {
    put(detail, h("h2", {}, m.name), errorView(err));
    return;
  }
  const status = statusRegion();
  const curl = h("pre", { class: "curl", hidden: true, tabindex: 0, "aria-label": "curl command" });
  const read = (): unknown => {
    try {
      return form.read();
    } catch (err) {
      if (err instanceof InputError) status.fail(new Error(err.message));
      throw err;
    }
  };
  const copyCurl = async () => {
    let params: unknown;
    try {
      params = read();
    } catch {
      return;
    }
    const text = curlFor(doc.servers?.[0]?.url ?? endpoint(domain), m.name, params);
    curl.textContent = text;
    curl.hidden = false;
    status.done(h("p", {}, (await copy(text)) ? "curl command copied." : "curl command shown below; copy it by hand."));
  };
  const formEl = h(
    "form",
    { "aria-label": `Call ${m.name}` },
    form.el,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, "Call"),
      h("button", { type: "button", onclick: () => void copyCurl() }, "Copy as curl"),
    ),
  );
  onSubmit(formEl, async () => {
    let params: unknown;
    try {
      params = read();
    } catch {
      return;
    }
    status.busy("Calling…");
    try {
      const result = await call(m.name, params, endpoint(domain));
      status.done(h("h3", {}, "Result"), h("pre", { class: "result", tabindex: 0 }, JSON.stringify(result, null, 2)));
    } catch (err) {
      status.fail(err);
    }
  });
  const errors = m.errors ?? [];
  put(
    detail,
    h("h2", {}, m.name),
    m.summary ? h("p", { class: "summary" }, m.summary) : null,
    m.description ? h("p", {}, m.description) : null,
    h("p", { class: "muted" }, `Auth: ${m["x-auth"] ?? "—"} · endpoint ${endpoint(domain)}`),
    errors.length
      ? h(
          "details",
          {},
          h("summary", {}, `Errors (${errors.length})`),
          h(
            "ul",
            {},
            errors.map((e) => h("li", {}, `${e.code} ${e.message}`)),
          ),
        )
      : null,
    formEl,
    status.el,
    curl,
  );
  detail.querySelector("h2")?.setAttribute("tabindex", "-1");
  detail.querySelector<HTMLElement>("h2")?.focus();
}
