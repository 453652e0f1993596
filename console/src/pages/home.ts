import { call } from "../api.ts";
import { h, put, when } from "../dom.ts";
import { errorView, page, table } from "../ui.ts";

interface Resident {
  resident_id: string;
  first_name: string;
  last_name: string;
  status: string;
  subscription_plan: string | null;
  subscription_status: string;
  subscription_end_date: string | null;
}
interface Company {
  company_id: string;
  name: string;
  company_type: string;
  status: string;
  subscription_plan: string | null;
  subscription_status: string;
  subscription_end_date: string | null;
}
interface Invitation {
  entity_name: string;
  inviter_name: string | null;
  role: string;
  share_units: number;
  status: string;
  expires_at: string;
}
interface UserInfo {
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  totp_enabled: boolean;
  roles: string[];
}

/** One section per list; a failing list shows its error in place and the others still show. */
async function section(title: string, load: () => Promise<HTMLElement>): Promise<HTMLElement> {
  let body: HTMLElement;
  try {
    body = await load();
  } catch (err) {
    body = errorView(err);
  }
  return h("section", { class: "card", "aria-label": title }, h("h2", {}, title), body);
}

export async function homePage(main: HTMLElement): Promise<void> {
  const sections = await Promise.all([
    section("Account", async () => {
      const me = await call<UserInfo>("authservice.me", {});
      const name = [me.first_name, me.last_name].filter(Boolean).join(" ");
      return h(
        "dl",
        { class: "facts" },
        h("dt", {}, "Email"),
        h("dd", {}, me.email, me.email_verified ? "" : " (not verified)"),
        name ? [h("dt", {}, "Name"), h("dd", {}, name)] : null,
        h("dt", {}, "Two-factor sign-in"),
        h("dd", {}, me.totp_enabled ? "on" : "off"),
        h("dt", {}, "Roles"),
        h("dd", {}, me.roles.join(", ") || "—"),
      );
    }),
    section("Residents", async () => {
      const r = await call<{ items: Resident[]; total: number }>("residentservice.list", { page: 1, page_size: 100 });
      return table(
        `Your residents (${r.total})`,
        ["Resident", "Name", "Status", "Plan", "Subscription", "Ends"],
        r.items.map((x) => [
          x.resident_id,
          `${x.first_name} ${x.last_name}`,
          x.status,
          x.subscription_plan ?? "—",
          h("span", { class: `badge ${x.subscription_status}` }, x.subscription_status),
          when(x.subscription_end_date),
        ]),
      );
    }),
    section("Companies", async () => {
      const r = await call<{ items: Company[]; total: number }>("companyservice.list", { page: 1, page_size: 100 });
      return table(
        `Your companies (${r.total})`,
        ["Company", "Name", "Type", "Status", "Plan", "Subscription", "Ends"],
        r.items.map((x) => [
          x.company_id,
          x.name,
          x.company_type,
          x.status,
          x.subscription_plan ?? "—",
          h("span", { class: `badge ${x.subscription_status}` }, x.subscription_status),
          when(x.subscription_end_date),
        ]),
      );
    }),
    section("Pending invitations", async () => {
      const r = await call<{ items: Invitation[] }>("entitydraftservice.get_my_invitations", {});
      const pending = r.items.filter((x) => x.status === "pending");
      return table(
        "Invitations waiting for your answer",
        ["Entity", "From", "Role", "Share units", "Expires"],
        pending.map((x) => [x.entity_name, x.inviter_name ?? "—", x.role, String(x.share_units), when(x.expires_at)]),
      );
    }),
  ]);
  put(main, ...page("Home", ...sections));
}
