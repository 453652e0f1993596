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

interface Role {
  company_id: string;
  subject_id: string | null;
  role: string;
  holder_name: string | null;
}
interface Invoice {
  invoice_number: string;
  status: string;
  amount: number;
  currency: string;
  due_date: string;
  recipient_email: string | null;
}
interface Proposal {
  company_id: string;
  title: string;
  status: string;
  voting_ends_at: string;
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

/** The roles each of the user's residents holds today (a share, a directorship...), with the resident. */
async function holdings(residents: Resident[]): Promise<(Role & { resident: Resident })[]> {
  const lists = await Promise.all(
    residents.map(async (resident) => {
      const r = await call<{ items: Role[] }>("companyroleservice.list_by_resident", {
        subject_id: resident.resident_id,
        as_of_epoch: 0, // now, on the server's clock
      });
      return r.items.map((role) => ({ ...role, resident }));
    }),
  );
  return lists.flat();
}

export async function homePage(main: HTMLElement): Promise<void> {
  const residents = call<{ items: Resident[]; total: number }>("residentservice.list", { page: 1, page_size: 100 });
  const companies = call<{ items: Company[]; total: number }>("companyservice.list", { page: 1, page_size: 100 });
  const held = residents.then((r) => holdings(r.items));
  // Every company the user owns or where one of its residents holds a role: where proposals may wait for a vote.
  const companyIds = Promise.all([companies, held]).then(([c, h]) => [
    ...new Set([...c.items.map((x) => x.company_id), ...h.map((x) => x.company_id)]),
  ]);
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
      const r = await residents;
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
      const r = await companies;
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
    section("Credit balance", async () => {
      const b = await call<{ balance: number; currency: string }>("creditservice.get_balance", {});
      return h("p", { class: "figure" }, `${b.balance.toFixed(2)} ${b.currency}`);
    }),
    section("Holdings", async () => {
      const rows = await held;
      return table(
        `Shares and roles your residents hold (${rows.length})`,
        ["Company", "Role", "Held by"],
        rows.map((x) => [x.company_id, x.role.replace(/_/g, " "), `${x.resident.first_name} ${x.resident.last_name}`]),
      );
    }),
    section("Open invoices", async () => {
      const owned = (await companies).items;
      const lists = await Promise.all(
        owned.map((c) => call<{ items: Invoice[] }>("invoiceservice.list", { fzc_id: c.company_id })),
      );
      const open = lists.flatMap((l, i) =>
        l.items.filter((x) => x.status === "sent" || x.status === "overdue").map((x) => ({ ...x, company: owned[i]! })),
      );
      return table(
        `Invoices your companies sent that are not paid (${open.length})`,
        ["Company", "Invoice", "To", "Amount", "Due", "Status"],
        open.map((x) => [
          x.company.name,
          x.invoice_number,
          x.recipient_email ?? "—",
          `${x.amount.toFixed(2)} ${x.currency}`,
          when(x.due_date),
          h("span", { class: `badge ${x.status}` }, x.status),
        ]),
      );
    }),
    section("Proposals open for a vote", async () => {
      const ids = await companyIds;
      const lists = await Promise.all(
        ids.map((id) =>
          call<{ items: Proposal[] }>("governanceservice.list_proposals", { company_id: id, status: "active" }),
        ),
      );
      const open = lists.flatMap((l) => l.items.filter((p) => p.status === "active"));
      return table(
        `Proposals in their voting period (${open.length})`,
        ["Company", "Proposal", "Voting ends"],
        open.map((p) => [p.company_id, p.title, when(p.voting_ends_at)]),
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
