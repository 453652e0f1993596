import { call, loadSession, whenSignedOut } from "./api.ts";
import { h, put } from "./dom.ts";
import { approvalsPage } from "./pages/approvals.ts";
import { explorerPage } from "./pages/explorer.ts";
import { homePage } from "./pages/home.ts";
import { keysPage } from "./pages/keys.ts";
import { signInPage, signOut } from "./pages/signin.ts";
import { errorView } from "./ui.ts";

/** Hash routes: the server serves one index.html; `#/keys` etc. pick the page. */
const ROUTES: Record<string, { title: string; render: (main: HTMLElement) => Promise<void> }> = {
  home: { title: "Home", render: homePage },
  explorer: { title: "API explorer", render: explorerPage },
  keys: { title: "API keys", render: keysPage },
  approvals: { title: "Approvals", render: approvalsPage },
};

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;

function renderNav(current: string): void {
  const session = loadSession();
  nav.hidden = !session;
  if (!session) return;
  put(
    nav,
    h(
      "ul",
      {},
      Object.entries(ROUTES).map(([name, route]) => {
        const link = h("a", { href: `#/${name}`, "aria-current": name === current ? "page" : null }, route.title);
        if (name === "approvals") void showPendingCount(link);
        return h("li", {}, link);
      }),
      h("li", {}, h("span", { class: "muted" }, session.email)),
      h("li", {}, h("button", { type: "button", class: "link", onclick: () => void signOut() }, "Sign out")),
    ),
  );
}

/** The number of approvals waiting for the person, beside the Approvals link (none shown when nothing waits). */
async function showPendingCount(link: HTMLElement): Promise<void> {
  try {
    const r = await call<{ items: unknown[]; next_cursor: string | null }>("mcpapprovalservice.list_pending", {
      limit: 100,
    });
    if (r.items.length === 0) return;
    const shown = r.next_cursor ? "100+" : String(r.items.length);
    link.append(" ", h("span", { class: "badge count", "aria-label": `${shown} pending` }, shown));
  } catch {
    // The count is a hint: the page itself shows the list or the error.
  }
}

/**
 * Each navigation renders into a view of its own that replaces the previous one at once: a page still loading
 * when the person moves on (or the session ends under it) finishes into its detached view, never over the new page.
 */
async function route(): Promise<void> {
  const name = location.hash.replace(/^#\/?/, "").split("?")[0] || "home";
  const session = loadSession();
  if (!session && name !== "signin") {
    location.replace("#/signin");
    return;
  }
  const target = ROUTES[name];
  const view = h("div", { class: "view" });
  main.replaceChildren(view);
  if (name === "signin" || !target) {
    renderNav("");
    if (session) {
      location.replace("#/home");
      return;
    }
    document.title = "Sign in · Freezone console";
    await signInPage(view);
  } else {
    renderNav(name);
    document.title = `${target.title} · Freezone console`;
    put(view, h("p", { class: "muted" }, "Loading…"));
    try {
      await target.render(view);
    } catch (err) {
      put(view, h("h1", {}, target.title), errorView(err));
    }
  }
  if (view.isConnected) view.querySelector<HTMLElement>("h1")?.focus();
}

// The skip link moves focus to the content; followed as a link it would change the hash, i.e. the route.
document.querySelector(".skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});
whenSignedOut(() => location.replace("#/signin"));
window.addEventListener("hashchange", () => void route());
void route();
