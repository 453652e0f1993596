import { call } from "../api.ts";
import { field, h, put, when } from "../dom.ts";
import { errorView, onSubmit, page, pretty, statusRegion, table } from "../ui.ts";
import { callLog } from "./keys.ts";

interface Approval {
  sid: string;
  api_key_name: string | null;
  tool_title: string;
  current: string | null;
  retryable: boolean;
  tool_name: string;
  arguments: string | null;
  arguments_summary: string;
  needs_password: boolean;
  amount: number;
  reason: string;
  status: string;
  requested_at: string;
  decided_at: string | null;
  expires_at: string;
  result_json: string | null;
  decision_reason: string | null;
  execution_error: string | null;
}

/**
 * The password field of an approval whose call takes the account password (needs_password): the agent's copy was
 * never stored, so the owner types it; null otherwise.
 */
function passwordField(a: Approval): HTMLInputElement | null {
  return a.needs_password
    ? h("input", { name: "password", type: "password", required: true, autocomplete: "current-password" })
    : null;
}

function approveParams(a: Approval, password: HTMLInputElement | null): Record<string, unknown> {
  return password ? { approval_id: a.sid, password: password.value } : { approval_id: a.sid };
}

/** One pending approval: what the agent asked, and the two decisions (reject needs a reason). */
function pendingCard(a: Approval, after: () => void): HTMLElement {
  const status = statusRegion();
  const password = passwordField(a);
  const approveForm = h(
    "form",
    { "aria-label": `Approve ${a.tool_name}` },
    password ? field("Your password (this call needs it)", password) : null,
    h("button", { type: "submit" }, "Approve"),
  );
  onSubmit(approveForm, async () => {
    status.busy("Approving and running the call…");
    try {
      const r = await call<Approval>("mcpapprovalservice.approve", approveParams(a, password));
      status.done(h("p", {}, `Approved: ${r.status}`), r.execution_error ? h("p", {}, r.execution_error) : null);
      after();
    } catch (err) {
      status.fail(err);
    }
  });
  const reason = h("textarea", { name: "reason", rows: 2, required: true });
  const rejectForm = h(
    "form",
    { "aria-label": `Reject ${a.tool_name}` },
    field("Reason for rejecting", reason),
    h("button", { type: "submit", class: "danger" }, "Reject"),
  );
  onSubmit(rejectForm, async () => {
    status.busy("Rejecting…");
    try {
      const r = await call<Approval>("mcpapprovalservice.reject", { approval_id: a.sid, reason: reason.value });
      status.done(h("p", {}, `Rejected: ${r.status}`));
      after();
    } catch (err) {
      status.fail(err);
    }
  });
  return h(
    "article",
    { class: "card approval", "aria-label": `Approval ${a.sid}` },
    h("h3", {}, a.tool_title),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Asked by"),
      h("dd", {}, a.api_key_name === null ? "a deleted key" : `key “${a.api_key_name}”`),
      h("dt", {}, "Tool"),
      h("dd", {}, h("code", {}, a.tool_name)),
      h("dt", {}, "Amount (dry run)"),
      h("dd", {}, String(a.amount)),
      h("dt", {}, "Reason"),
      h("dd", {}, a.reason),
      h("dt", {}, "Requested"),
      h("dd", {}, when(a.requested_at)),
      h("dt", {}, "Expires"),
      h("dd", {}, when(a.expires_at)),
    ),
    h("h4", {}, a.current ? "Proposed (the call's arguments)" : "Arguments"),
    h("pre", { tabindex: 0 }, pretty(a.arguments ?? a.arguments_summary)),
    // An update: the record's values now, of the fields the call would set.
    a.current ? [h("h4", {}, "Current values"), h("pre", { tabindex: 0 }, pretty(a.current))] : null,
    h("div", { class: "decide" }, approveForm, rejectForm),
    status.el,
  );
}

/** An approved call whose replay failed: approving again retries it (no second decision). */
function retryForm(a: Approval, after: () => Promise<void>): HTMLElement {
  const status = statusRegion();
  const password = passwordField(a);
  const form = h(
    "form",
    { "aria-label": `Retry ${a.tool_name}` },
    password ? field("Your password", password) : null,
    h("button", { type: "submit" }, "Retry"),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy("Retrying…");
    try {
      await call<Approval>("mcpapprovalservice.approve", approveParams(a, password));
      await after();
    } catch (err) {
      status.fail(err);
    }
  });
  return form;
}

/**
 * History: the approvals named by the caller's call log (a parked call is logged with its approval_id), each read
 * with `mcpapprovalservice.get` for its current state, result and execution error.
 */
async function history(): Promise<Approval[]> {
  const ids = [...new Set((await callLog()).map((e) => e.approval_id).filter((id): id is string => !!id))];
  const all = await Promise.all(
    ids.slice(0, 50).map((id) => call<Approval>("mcpapprovalservice.get", { approval_id: id })),
  );
  return all.filter((a) => a.status !== "pending");
}

export async function approvalsPage(main: HTMLElement): Promise<void> {
  const pendingEl = h("div", {});
  const historyEl = h("div", {});
  const refresh = async () => {
    try {
      const r = await call<{ items: Approval[] }>("mcpapprovalservice.list_pending", { limit: 100 });
      put(
        pendingEl,
        r.items.length
          ? r.items.map((a) => pendingCard(a, () => void refresh()))
          : h("p", { class: "muted" }, "Nothing waits for your approval."),
      );
    } catch (err) {
      put(pendingEl, errorView(err));
    }
    try {
      const items = await history();
      put(
        historyEl,
        table(
          "Decided approvals",
          ["Tool", "Key", "Status", "Amount", "Decided", "Decision reason", "Result", "Execution error"],
          items.map((a) => [
            a.tool_title,
            a.api_key_name ?? "—",
            h("span", { class: `badge ${a.status}` }, a.status),
            String(a.amount),
            when(a.decided_at),
            a.decision_reason ?? "—",
            a.result_json ? h("pre", { class: "small", tabindex: 0 }, pretty(a.result_json)) : "—",
            // Retry only where another attempt may pass (a transient failure); a refusal would fail the same way.
            a.execution_error ? [a.execution_error, a.retryable ? retryForm(a, refresh) : null] : "—",
          ]),
        ),
      );
    } catch (err) {
      put(historyEl, errorView(err));
    }
  };
  await refresh();
  put(
    main,
    ...page(
      "Approvals",
      h(
        "section",
        { class: "card", "aria-label": "Pending approvals" },
        h("h2", {}, "Pending"),
        h("button", { type: "button", onclick: () => void refresh() }, "Refresh"),
        pendingEl,
      ),
      h("section", { class: "card", "aria-label": "History" }, h("h2", {}, "History"), historyEl),
    ),
  );
}
