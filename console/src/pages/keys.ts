import { call } from "../api.ts";
import { copy, field, h, put, uid, when } from "../dom.ts";
import { TOOLSETS } from "../toolsets.ts";
import { errorView, onSubmit, page, statusRegion, table } from "../ui.ts";

interface KeySummary {
  key_id: string;
  name: string;
  prefix: string;
  last_four: string | null;
  blocked_tool_patterns: string;
  approval_threshold: number;
  max_transaction_amount: number;
  daily_spending_limit: number;
  monthly_spending_limit: number;
  max_calls_per_hour: number;
  max_calls_per_day: number;
  mcp_scope: string | null;
  expires_at: string | null;
  is_active: boolean;
  last_used_at: string | null;
  created_at: string;
  allowed_tool_patterns: string;
  approval_required_tools: string;
}
interface NewKey {
  key_id: string;
  api_key: string;
  name: string;
}
interface CallLogEntry {
  api_key_id: string;
  tool_name: string;
  arguments_summary: string;
  amount: number;
  result_status: string;
  error_message: string;
  approval_id: string | null;
  created_at: string;
}

/** The caller's MCP call log, newest first, up to `pages` pages of 100. */
export async function callLog(pages = 5): Promise<CallLogEntry[]> {
  const out: CallLogEntry[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const params: Record<string, unknown> = { limit: 100 };
    if (cursor) params["cursor"] = cursor;
    const r: { items: CallLogEntry[]; next_cursor: string | null } = await call("mcpcalllogservice.list", params);
    out.push(...r.items);
    cursor = r.next_cursor;
    if (!cursor) break;
  }
  return out;
}

/** The new key, once: a read-only field and a copy button. */
function shownOnce(key: NewKey): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value: key.api_key, class: "secret", name: "new-key" });
  const note = h("p", { "aria-live": "polite" });
  return h(
    "div",
    { class: "once", role: "status" },
    h("h3", {}, `Key "${key.name}" created`),
    h("p", {}, "Copy it now: it is shown this once and cannot be read again."),
    field("Your new API key", input),
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          input.select();
          note.textContent = (await copy(key.api_key)) ? "Copied." : "Select the text and copy it by hand.";
        },
      },
      "Copy key",
    ),
    note,
  );
}

const num = (label: string, name: string, hint: string, integer = false) => {
  const input = h("input", { type: "number", name, min: 0, step: integer ? 1 : "any" });
  return { input, el: field(label, input, hint) };
};

function createForm(onCreated: () => void): HTMLElement {
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 100 });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const kindName = uid("kind");
  const script = h("input", { type: "radio", name: kindName, value: "script", id: uid("k"), checked: true });
  const agent = h("input", { type: "radio", name: kindName, value: "agent", id: uid("k") });
  const scope = h(
    "select",
    { name: "mcp_scope" },
    h("option", { value: "read" }, "read: read-only tools"),
    h("option", { value: "readwrite" }, "readwrite: every tool the patterns allow"),
  );
  const toolset = h(
    "select",
    { name: "toolset" },
    h("option", { value: "" }, "— none: write the patterns —"),
    TOOLSETS.map((t) => h("option", { value: t.name }, `${t.name}: ${t.description}`)),
  );
  const allowed = h("input", { type: "text", name: "allowed_tool_patterns", maxlength: 2000 });
  const blocked = h("input", { type: "text", name: "blocked_tool_patterns", maxlength: 2000 });
  const approval = h("input", { type: "text", name: "approval_required_tools", maxlength: 2000 });
  const threshold = num("Approval threshold (EUR)", "approval_threshold", "Calls moving more need approval; 0 = off.");
  const limits = [
    num("Largest amount per call (EUR)", "max_transaction_amount", "0 = unlimited; empty = default (100)."),
    num("Daily spending limit (EUR)", "daily_spending_limit", "0 = unlimited; empty = default (500)."),
    num("Monthly spending limit (EUR)", "monthly_spending_limit", "0 = unlimited; empty = default (2000)."),
    num("Calls per hour", "max_calls_per_hour", "0 = unlimited; empty = default (60).", true),
    num("Calls per day", "max_calls_per_day", "0 = unlimited; empty = default (500).", true),
  ];
  toolset.addEventListener("change", () => {
    const set = TOOLSETS.find((t) => t.name === toolset.value);
    if (set) allowed.value = set.patterns.join(",");
  });
  const agentFields = h(
    "fieldset",
    { class: "agent-policy", hidden: true },
    h("legend", {}, "Agent policy"),
    field("MCP scope", scope),
    field("Toolset", toolset, "Fills the allowed patterns with a ready-made set."),
    field("Allowed tool patterns", allowed, "Comma-separated globs, e.g. freezone_invoiceservice_*; empty = all."),
    field("Blocked tool patterns", blocked, "Comma-separated globs refused before anything else."),
    field("Approval-required tool patterns", approval, "Calls to these tools wait for your approval."),
    threshold.el,
    limits.map((l) => l.el),
  );
  const showKind = () => {
    agentFields.hidden = !agent.checked;
  };
  script.addEventListener("change", showKind);
  agent.addEventListener("change", showKind);
  const status = statusRegion();
  const form = h(
    "form",
    { "aria-label": "Create a key" },
    field("Key name", name),
    h(
      "fieldset",
      {},
      h("legend", {}, "Kind of key"),
      h("div", { class: "radio" }, script, h("label", { for: script.id }, "Script key (API only, no MCP)")),
      h("div", { class: "radio" }, agent, h("label", { for: agent.id }, "Agent key (MCP, bound by a tier policy)")),
    ),
    agentFields,
    field("Your password", password, "Creating a key needs your password again."),
    h("button", { type: "submit" }, "Create key"),
    status.el,
  );
  onSubmit(form, async () => {
    const params: Record<string, unknown> = { name: name.value, password: password.value };
    if (agent.checked) {
      params["mcp_scope"] = scope.value;
      const texts = {
        allowed_tool_patterns: allowed,
        blocked_tool_patterns: blocked,
        approval_required_tools: approval,
      };
      for (const [key, input] of Object.entries(texts)) if (input.value.trim()) params[key] = input.value.trim();
      for (const { input } of [threshold, ...limits]) if (input.value !== "") params[input.name] = Number(input.value);
    }
    status.busy("Creating…");
    try {
      const key = await call<NewKey>("apikeyservice.generate_personal", params);
      password.value = "";
      status.done(shownOnce(key));
      onCreated();
    } catch (err) {
      status.fail(err);
    }
  });
  return form;
}

/** Rotate or revoke: both need the password again; the form opens under the list. */
function confirmForm(action: "rotate" | "revoke", key: KeySummary, after: () => void): HTMLElement {
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const status = statusRegion();
  const label = action === "rotate" ? "Rotate" : "Revoke";
  const form = h(
    "form",
    { "aria-label": `${label} ${key.name}`, class: "card confirm" },
    h("h3", {}, `${label} "${key.name}"`),
    h(
      "p",
      {},
      action === "rotate"
        ? "A new key replaces this one, with the same policy; the old key stops working."
        : "The key stops working at once. This cannot be undone.",
    ),
    field("Your password", password),
    h("button", { type: "submit", class: action === "revoke" ? "danger" : null }, `${label} key`),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy();
    try {
      const r = await call<NewKey>(`apikeyservice.${action}`, { key_id: key.key_id, password: password.value });
      password.value = "";
      status.done(action === "rotate" ? shownOnce(r) : h("p", {}, "Revoked."));
      after();
    } catch (err) {
      status.fail(err);
    }
  });
  return form;
}

/** The numeric limits of a key's tier policy, as update_personal names them; 0 means no limit. */
const LIMITS = [
  ["max_transaction_amount", "Largest amount per call (EUR)"],
  ["daily_spending_limit", "Spending per day (EUR)"],
  ["monthly_spending_limit", "Spending per month (EUR)"],
  ["approval_threshold", "Approval above (EUR)"],
  ["max_calls_per_hour", "Calls per hour"],
  ["max_calls_per_day", "Calls per day"],
] as const;

const PATTERNS = [
  ["allowed_tool_patterns", "Allowed tool patterns"],
  ["blocked_tool_patterns", "Blocked tool patterns"],
  ["approval_required_tools", "Approval-required patterns"],
] as const;

/** Edit a key's name and tier policy in place (apikeyservice.update_personal; the password again). */
function policyForm(key: KeySummary, after: () => void): HTMLElement {
  const name = h("input", { type: "text", name: "name", value: key.name, required: true });
  const scope = h(
    "select",
    { name: "mcp_scope" },
    [
      ["", "Script key (no MCP)"],
      ["read", "Agent, read"],
      ["readwrite", "Agent, read and write"],
    ].map(([value, text]) => h("option", { value, selected: (key.mcp_scope ?? "") === value ? true : null }, text)),
  );
  const patterns = PATTERNS.map(([param, label]) => {
    const input = h("input", { type: "text", name: param, value: key[param] });
    return { param, label, input };
  });
  const limits = LIMITS.map(([param, label]) => {
    const input = h("input", { type: "number", name: param, min: "0", step: "any", value: String(key[param]) });
    return { param, label, input };
  });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const status = statusRegion();
  const form = h(
    "form",
    { "aria-label": `Policy of ${key.name}`, class: "card confirm" },
    h("h3", {}, `Policy of "${key.name}"`),
    field("Key name", name),
    field("Kind", scope),
    patterns.map((p) => field(p.label, p.input)),
    limits.map((l) => field(`${l.label} (0: none)`, l.input)),
    field("Your password", password),
    h("button", { type: "submit" }, "Save the policy"),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy("Saving…");
    const params: Record<string, unknown> = {
      key_id: key.key_id,
      password: password.value,
      name: name.value,
      mcp_scope: scope.value === "" ? null : scope.value,
    };
    for (const p of patterns) params[p.param] = p.input.value;
    for (const l of limits) params[l.param] = Number(l.input.value);
    try {
      await call("apikeyservice.update_personal", params);
      password.value = "";
      status.done(h("p", {}, "Saved: the next call made with the key follows it."));
      after();
    } catch (err) {
      status.fail(err);
    }
  });
  return form;
}

async function showLog(target: HTMLElement, key: KeySummary): Promise<void> {
  put(target, h("p", { class: "muted" }, "Loading…"));
  try {
    const entries = (await callLog()).filter((e) => e.api_key_id === key.key_id);
    put(
      target,
      h("h3", { tabindex: "-1" }, `Call log of "${key.name}"`),
      table(
        `Calls made with "${key.name}"`,
        ["When", "Tool", "Arguments", "Amount", "Result", "Error", "Approval"],
        entries.map((e) => [
          when(e.created_at),
          e.tool_name,
          h("code", {}, e.arguments_summary),
          String(e.amount),
          h("span", { class: `badge ${e.result_status}` }, e.result_status),
          e.error_message || "—",
          e.approval_id ?? "—",
        ]),
      ),
    );
    target.querySelector<HTMLElement>("h3")?.focus();
  } catch (err) {
    put(target, errorView(err));
  }
}

export async function keysPage(main: HTMLElement): Promise<void> {
  const list = h("div", {});
  const below = h("div", { class: "below" });
  const refresh = async () => {
    try {
      const r = await call<{ items: KeySummary[] }>("apikeyservice.list_personal", {});
      put(
        list,
        table(
          "Your personal keys",
          ["Name", "Key", "Kind", "Active", "Expires", "Last used", "Actions"],
          r.items.map((k) => [
            k.name,
            h("code", {}, k.last_four ? `${k.prefix}…${k.last_four}` : `${k.prefix}…`),
            k.mcp_scope ? `agent (${k.mcp_scope})` : "script",
            k.is_active ? "yes" : "revoked",
            when(k.expires_at),
            when(k.last_used_at),
            h(
              "div",
              { class: "actions" },
              h("button", { type: "button", onclick: () => void showLog(below, k) }, `Call log`),
              k.is_active
                ? [
                    h("button", { type: "button", onclick: () => openPolicy(k) }, "Policy"),
                    h("button", { type: "button", onclick: () => openConfirm("rotate", k) }, "Rotate"),
                    h("button", { type: "button", class: "danger", onclick: () => openConfirm("revoke", k) }, "Revoke"),
                  ]
                : null,
            ),
          ]),
        ),
      );
    } catch (err) {
      put(list, errorView(err));
    }
  };
  const openConfirm = (action: "rotate" | "revoke", key: KeySummary) => {
    put(
      below,
      confirmForm(action, key, () => void refresh()),
    );
    below.querySelector<HTMLInputElement>("input")?.focus();
  };
  const openPolicy = (key: KeySummary) => {
    put(
      below,
      policyForm(key, () => void refresh()),
    );
    below.querySelector<HTMLInputElement>("input")?.focus();
  };
  await refresh();
  put(
    main,
    ...page(
      "API keys",
      h("section", { class: "card", "aria-label": "Create a key" }, h("h2", {}, "Create a key"), createForm(refresh)),
      h("section", { class: "card", "aria-label": "Your keys" }, h("h2", {}, "Your keys"), list, below),
    ),
  );
}
