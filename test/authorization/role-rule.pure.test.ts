import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MEMBER, OWNER, passesCompanyRole } from "../../codegen/authorization.ts";
import type { ResidentStatus } from "../../generated/types.ts";
import { RESIDENT_STATUS_ALLOWS } from "../../src/domain/resident-status.ts";
import { companyStanding, type HeldRole, satisfiesCompanyRole } from "../../src/domain/target-access.ts";
import { companyRows, ROLE_KINDS } from "./support.ts";

/**
 * The company role rule, without a database: the role model of the docs (codegen/authorization.ts
 * `passesCompanyRole`) and the dispatcher's (src/domain/target-access.ts `companyStanding`) agree with each other
 * and with the rule docs/authorization.md writes down, for every required role and every kind of caller:
 * - `member` is any current role; another role must be held; a founder may act as director; the owner counts as
 *   founder; an administrator's session passes everything;
 * - no current role: NotFound; roles short of the one needed: Forbidden;
 * - a write counts only roles held by residents whose status allows `act` (an owner without a resident counts):
 *   roles held only through others answer InvalidState with the holder's status.
 */

const REQUIRED = [MEMBER, ...ROLE_KINDS];

/** A caller as the role model sees it: the roles it holds (`owner` for the owning user). */
interface CallerKind {
  name: string;
  held: string[];
}

const CALLERS: CallerKind[] = [
  ...ROLE_KINDS.map((kind) => ({ name: kind, held: [kind] })),
  { name: "owner", held: [OWNER] },
  { name: "owner and shareholder", held: [OWNER, "shareholder"] },
  { name: "director and shareholder", held: ["director", "shareholder"] },
  { name: "shareholder and founding_member", held: ["shareholder", "founding_member"] },
  { name: "every role", held: [...ROLE_KINDS] },
  { name: "none", held: [] },
];

/** The rule as docs/authorization.md's "Company operations" words it, written out independently. */
function docRule(required: string, held: readonly string[]): boolean {
  const roles = held.map((r) => (r === OWNER ? "founder" : r));
  if (required === MEMBER) return roles.length > 0;
  return roles.includes(required) || (required === "director" && roles.includes("founder"));
}

/** What the dispatcher sees of a caller: its roles with their holders' status (the owner as founder). */
function heldRoles(caller: CallerKind, status: ResidentStatus | null): HeldRole[] {
  return caller.held.map((role) => (role === OWNER ? { role: "founder", status } : { role, status }));
}

const STATUSES: ResidentStatus[] = ["active", "pending", "expired", "suspended"];
const mayAct = (s: ResidentStatus | null) => s === null || RESIDENT_STATUS_ALLOWS[s].includes("act");

test("the table covers every CompanyRoleKind and member", () => {
  expect(ROLE_KINDS).toEqual(expect.arrayContaining(["founder", "director", "shareholder", "founding_member"]));
  expect(REQUIRED[0]).toBe("member");
});

describe.each(REQUIRED)("required role %s", (required) => {
  test.each(CALLERS)("$name: passesCompanyRole, satisfiesCompanyRole and the written rule agree", (caller) => {
    const want = docRule(required, caller.held);
    expect(passesCompanyRole(required, caller.held)).toBe(want);
    const asDispatched = heldRoles(caller, "active").map((h) => h.role);
    expect(satisfiesCompanyRole(asDispatched, required)).toBe(want);
  });

  describe.each(CALLERS)("$name", (caller) => {
    const passes = docRule(required, caller.held);
    const refusal = caller.held.length === 0 ? "none" : "short";

    // Every caller kind with each holder status; `null` is an owner with no owning resident.
    const statuses: (ResidentStatus | null)[] = caller.held.includes(OWNER) ? [...STATUSES, null] : STATUSES;
    test.each(statuses)("holders %s: reading and acting", (status) => {
      const held = heldRoles(caller, status);
      const reading = companyStanding(held, required, false);
      const acting = companyStanding(held, required, true);
      if (!passes) {
        expect(reading).toEqual({ kind: refusal });
        expect(acting).toEqual({ kind: refusal });
        return;
      }
      expect(reading).toEqual({ kind: "allowed" });
      if (mayAct(status)) {
        expect(acting).toEqual({ kind: "allowed" });
      } else {
        expect(acting).toMatchObject({ kind: "inactive", refusal: { refusal: "InvalidState", details: { status } } });
      }
    });
  });
});

describe("mixed holders (roles through several residents of the caller)", () => {
  const cases: { name: string; held: HeldRole[]; required: string; acting: string; reading: string }[] = [
    {
      name: "a suspended director and an active shareholder: director writes refused, member writes pass",
      held: [
        { role: "director", status: "suspended" },
        { role: "shareholder", status: "active" },
      ],
      required: "director",
      acting: "inactive",
      reading: "allowed",
    },
    {
      name: "same caller, member required",
      held: [
        { role: "director", status: "suspended" },
        { role: "shareholder", status: "active" },
      ],
      required: MEMBER,
      acting: "allowed",
      reading: "allowed",
    },
    {
      name: "an expired director and an active director: passes",
      held: [
        { role: "director", status: "expired" },
        { role: "director", status: "active" },
      ],
      required: "director",
      acting: "allowed",
      reading: "allowed",
    },
    {
      name: "an owner without a resident (founder, null status) and a pending shareholder: director passes",
      held: [
        { role: "shareholder", status: "pending" },
        { role: "founder", status: null },
      ],
      required: "director",
      acting: "allowed",
      reading: "allowed",
    },
    {
      name: "a pending founder and an active shareholder, founder required: refused with the founder's status",
      held: [
        { role: "founder", status: "pending" },
        { role: "shareholder", status: "active" },
      ],
      required: "founder",
      acting: "inactive",
      reading: "allowed",
    },
    {
      name: "an active founding_member short of director: Forbidden, not InvalidState",
      held: [{ role: "founding_member", status: "active" }],
      required: "director",
      acting: "short",
      reading: "short",
    },
  ];
  test.each(cases)("$name", (c) => {
    expect(companyStanding(c.held, c.required, true).kind).toBe(c.acting);
    expect(companyStanding(c.held, c.required, false).kind).toBe(c.reading);
    expect(
      passesCompanyRole(
        c.required,
        c.held.map((h) => h.role),
      ),
    ).toBe(c.reading === "allowed");
  });

  test("the refusal names the status of a holder who may not act", () => {
    const s = companyStanding(
      [
        { role: "director", status: "expired" },
        { role: "shareholder", status: "active" },
      ],
      "director",
      true,
    );
    expect(s).toMatchObject({ kind: "inactive", refusal: { refusal: "InvalidState", details: { status: "expired" } } });
  });
});

describe("docs/authorization.md", () => {
  const doc = readFileSync(join(import.meta.dirname, "../../docs/authorization.md"), "utf8").split("\n");
  const header = doc.find((l) => l.startsWith("| Operation | Role |"));
  const columns = header?.split("|").map((s) => s.trim()) ?? [];

  test("its company table has a column per role kind, the owner and the administrator", () => {
    expect(columns).toEqual(expect.arrayContaining([...ROLE_KINDS, OWNER, "admin"]));
  });

  test.each(companyRows())("$entry.name: each column says what the role model says", ({ entry, rule }) => {
    const line = doc.find((l) => l.startsWith(`| \`${entry.name}\` |`));
    expect(line, `${entry.name} has no row`).toBeDefined();
    const cells = line!.split("|").map((s) => s.trim());
    expect(cells[columns.indexOf("Role")]?.startsWith(`\`${rule.role}\``)).toBe(true);
    // A holder short of the role passes only as the target's party (x-target.party), when the row has one.
    for (const holder of [...ROLE_KINDS, OWNER]) {
      expect(cells[columns.indexOf(holder)], `${entry.name} / ${holder}`).toBe(
        docRule(rule.role, [holder]) ? "yes" : rule.party ? "as the party" : "-",
      );
    }
    // An administrator's session passes a row (the dispatcher skips the rule for it: src/rpc/target.ts) unless its
    // target says adminBypass: false (money the target owns).
    expect(cells[columns.indexOf("admin")]).toBe(rule.adminBypass ? "yes" : "-");
  });
});
