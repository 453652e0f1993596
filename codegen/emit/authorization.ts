import { type CompanyRule, companyRoleKinds, companyRule, OWNER, passesCompanyRole } from "../authorization.ts";
import type { CallerBinding, MethodModel, RecordModel, ServiceModel, SpecModel } from "../model.ts";
import { actsThroughTarget } from "../targets.ts";
import type { GeneratedFile } from "../write.ts";

export const AUTHORIZATION_DOC = "docs/authorization.md";

/** Who each `x-auth` value admits, in words (also the reference pages' wording). */
export const WHO: Record<string, string> = {
  anonymous: "anyone, no credentials",
  user: "a signed-in user or an API key",
  session: "a signed-in session (no API key)",
  admin: "an administrator's session",
  partner: "a reseller API key",
  webhook: "the provider (signed webhook)",
};

const CRUD_WHO: Record<string, string> = {
  read: "owner and administrators read; nobody writes (business operations do)",
  owner: "owner and administrators read; the owner sets and deletes its rows",
  admin: "administrators' sessions only (each write an AdminAction)",
};

const code = (s: string) => `\`${s}\``;

function binding(b: CallerBinding | null): string {
  if (!b) return "";
  const kind = b.kind === "user" ? "" : ` (${b.kind})`;
  return `${code(b.param)}${kind}${b.adminMayOverride ? ", admin may name another" : ""}`;
}

function source(rule: CompanyRule): string {
  const where =
    rule.record === "ZoneCompany"
      ? code(rule.param)
      : `${rule.record} \`${rule.param}\` (its ${code(rule.companyField)})`;
  const who = rule.proxy ? "owns or holds an effective proxy for" : "owns";
  const sees = rule.proxy && !rule.proxyActs ? "; a proxy holder sees it, its owner changes it" : "";
  const resident = rule.foreignResident
    ? `; or a resident the caller ${who} (else ${rule.foreignResident}${sees})`
    : "";
  return `${where}${rule.optional ? " (when given)" : ""}${resident}`;
}

/** The role a company operation needs, and the target's party who passes without it (`x-target.party`). */
export function roleWords(role: string, party: CompanyRule["party"]): string {
  return party ? `${code(role)}, or the ${party.kind} its ${code(party.field)} names` : code(role);
}

/** Who may call a method outside the company table, with the role its acting resident must hold (`x-acts-as`). */
function whoMayCall(m: MethodModel): string {
  const base = m.internal ? `nobody from outside (internal; ${m.auth})` : (WHO[m.auth] ?? m.auth);
  const a = m.actsAs;
  if (!a?.role || !a.param || !m.target) return base;
  return `${base}, acting for a current ${code(a.role)} of the ${m.target.record}'s company (${code(a.param)})`;
}

/** The resident status rule of a method (docs/decisions.md "Resident status"), or "" when none applies. */
export function statusRule(m: MethodModel): string {
  const parts: string[] = [];
  if (m.actsAs?.param) {
    const role = m.actsAs.role ? ` and holds ${m.actsAs.role} in the company` : "";
    parts.push(`${code(m.actsAs.param)} may ${m.actsAs.action}${role}`);
  }
  if (m.actsAs?.caller) parts.push(`the caller's resident may ${m.actsAs.action}`);
  if (actsThroughTarget(m)) {
    parts.push(m.target?.role ? "the role is held by an active resident" : "the issuing resident is active");
  }
  return parts.join("; ");
}

function companySection(model: SpecModel): string[] {
  // founder and director first, then the other kinds in the enumeration's order (Array.sort is stable).
  const rank = (k: string) => ["founder", "director"].indexOf(k) + 1 || 3;
  const kinds = companyRoleKinds(model).sort((a, b) => rank(a) - rank(b));
  const holders = [...kinds, OWNER];
  const rows = model.methods
    .map((m) => ({ m, rule: companyRule(m) }))
    .filter((r): r is { m: MethodModel; rule: CompanyRule } => r.rule !== null)
    .sort((a, b) => a.m.name.localeCompare(b.m.name));
  const header = [
    "Operation",
    "Role",
    ...holders,
    "admin",
    "Company from",
    "Operating",
    "Resident status",
    "Caller binding",
    "Password",
  ];
  const lines = rows.map(({ m, rule }) => {
    const cells = holders.map((h) => (passesCompanyRole(rule.role, [h]) ? "yes" : rule.party ? "as the party" : "-"));
    return [
      code(m.name),
      roleWords(rule.role, rule.party),
      ...cells,
      rule.adminBypass ? "yes" : "-",
      source(rule),
      rule.operable ? (rule.companyAction === "operate" ? "yes" : rule.companyAction) : "",
      statusRule(m),
      binding(m.callerBinding),
      m.password ? "yes" : "",
    ];
  });
  return [
    "## Company operations",
    "",
    "A column says whether a caller holding only that role passes. Roles are the caller's current CompanyRole rows in",
    "the company (`valid_from <= now < valid_to`) on a resident the caller owns; `owner` is the company's owning user",
    "(the pair `user_id`, `partner_id`) with no role, counted as `founder`; `member` is any current role; a founder",
    "may act as director; `admin` is an administrator's signed-in session (not an administrator's API key).",
    "Refusals (API.md): a caller with no current role in the company (a stranger, a past holder whose window closed,",
    "a holder whose window has not started, an unknown company) gets `-32003 NotFound`, without learning whether the",
    "company exists; a caller with another current role gets `-32002 Forbidden`. The dispatcher checks every row",
    "before the handler runs (src/rpc/target.ts; after x-auth, params and caller binding, before password re-entry):",
    "it loads the target record (`x-target`; `-32003 NotFound` when absent), reads its company (`Company from`), applies",
    "the role, refuses a company whose status does not allow the operation (`Operating`: `yes` for business operations,",
    "or the CompanyAction named, such as `update_profile`; `-32005 InvalidState`) and applies the resident",
    "status rule (`Resident status`: a write counts only roles held by a resident whose status allows acting; roles",
    "held only by a suspended, expired or pending resident answer `-32005 InvalidState`). A role with a party",
    "(`x-target.party`): a member who is the party the target names (the giver of a share transfer, the initiator of",
    "a fund transfer) passes without the role; other members get `-32002 Forbidden`.",
    "",
    lines.length > 0 ? table(header, lines) : "The spec has no company-scoped operation.",
    "",
  ];
}

/** The reads the DocumentAudience rule decides (`x-visibility`): what each answers a past or present member. */
function visibilitySection(model: SpecModel): string[] {
  const rows = model.methods
    .filter((m) => m.visibility !== null)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((m) => {
      const v = m.visibility as NonNullable<MethodModel["visibility"]>;
      const what = v.param
        ? `the ${code(v.kind)} ${code(v.param)} names: \`-32003 NotFound\` unless the rule grants view`
        : `the ${code(v.kind)} records in ${code(v.items ?? "")}: only those the rule grants view of`;
      return [code(m.name), code(v.kind), what];
    });
  if (rows.length === 0) return [];
  return [
    "## Reads decided by the visibility rule",
    "",
    "`x-visibility` (issue 30): for these reads the `member` of the company table means a member of any period, a",
    "past holder included (anyone else gets `-32003 NotFound`), and what the read answers is the DocumentAudience",
    "rule's decision, the one `documentaudienceservice.can_view` answers (src/domain/document-visibility.ts): some",
    "role of one of the caller's subjects (its residents, those it holds an effective proxy for, the companies it",
    "owns) overlaps the record's relevant window with a classification tier in common. Each kind's window is listed",
    'in docs/decisions.md "Visibility of company records (issue 30)". An administrator\'s session reads every record.',
    "",
    table(["Operation", "Kind", "Decides"], rows),
    "",
  ];
}

function serviceSection(service: ServiceModel): string[] {
  const rows = service.methods
    .filter((m) => companyRule(m) === null)
    .map((m) => [
      code(m.name),
      whoMayCall(m),
      m.target ? `${m.target.record} ${code(m.target.param)}` : "",
      statusRule(m),
      binding(m.callerBinding),
      m.password ? code(m.password) : "",
    ]);
  if (rows.length === 0) return [];
  const header = ["Operation", "Who may call", "Target", "Resident status", "Caller binding", "Password"];
  return [`### ${service.name}`, "", table(header, rows), ""];
}

function crudSection(records: RecordModel[]): string[] {
  const rows = records
    .filter((r) => r.crud !== "none")
    .sort((a, b) => a.lower.localeCompare(b.lower))
    .map((r) => [code(`${r.lower}.*`), code(r.crud), CRUD_WHO[r.crud] ?? r.crud, r.owner.map(code).join(", ")]);
  return [
    "## Generic record operations",
    "",
    '`new`, `get`, `list`, `find`, `set`, `delete` per record (`x-crud`, ARCHITECTURE "Who may do what"); records',
    "with `x-crud: none` have none. Ownership compares the `x-owner` fields with the caller.",
    "",
    table(["Record", "x-crud", "Who", "Owner fields"], rows),
    "",
  ];
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** docs/authorization.md: who may call every operation, from x-auth, x-target, x-acts-as, x-caller-binding, x-password. */
export function emitAuthorization(model: SpecModel): GeneratedFile[] {
  const services = [...model.services].sort((a, b) => a.name.localeCompare(b.name));
  const content = [
    "<!-- @generated by codegen from spec/ — do not edit. Regenerate with `npm run codegen`. -->",
    "",
    "# Authorization",
    "",
    "Who may call each operation, generated from the spec (`x-auth`, `x-target`, `x-acts-as`, `x-caller-binding`,",
    "`x-password`, `x-internal`; see [spec-format.md](spec-format.md)). `npm run codegen:check` fails when this file",
    "is stale, and test/authorization/ checks the dispatcher against these rules on both databases.",
    "A caller-bound param is filled from the caller when omitted and refused (`-32002 NotOwner`) when it names",
    "someone else; a password param is re-entry of the account password, checked before the handler.",
    "",
    ...companySection(model),
    ...visibilitySection(model),
    "## Other operations",
    "",
    "Who passes the dispatcher. `Target` is the record the dispatcher loads first (`-32003 NotFound` when absent);",
    '`Resident status` the rule of docs/decisions.md "Resident status" the dispatcher applies (`-32005 InvalidState`).',
    "Past it, handlers scope what they read and change to the caller (owner pairs, as each method's description",
    "says); a record the caller may not see is `-32003 NotFound`.",
    "",
    ...services.flatMap(serviceSection),
    ...crudSection(model.records),
  ].join("\n");
  return [{ path: AUTHORIZATION_DOC, content }];
}
