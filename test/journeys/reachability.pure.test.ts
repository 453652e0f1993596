import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../../src/project-root.ts";

/**
 * Issue 30 item 4: every state of the seed's state sets is reached by a journey or listed as unreachable with its
 * reason. The state sets: every `*Status` enumeration of spec/enums.json (draft, MCP approval, company status,
 * proposal, KYC review among them) plus the discipline chain's GovernanceActionKind and DecisionOutcome and the
 * CompanyRoleKind of company roles. A journey declares what it reaches with an `expectReached({...})` literal
 * (test/support/reached.ts checks on the wire that each declared state was answered); docs/decisions.md lists the
 * unreachable ones under `### Unreachable states (issue 30)` as `- Enum.value: reason`.
 */

const JOURNEYS = join(PROJECT_ROOT, "test", "journeys");
const HEADING = "### Unreachable states (issue 30)";
const EXTRA_SETS = ["GovernanceActionKind", "CompanyRoleKind", "DecisionOutcome"];

function stateSets(): Map<string, string[]> {
  const enums = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "enums.json"), "utf8")) as {
    schemas: Record<string, { enum: string[] }>;
  };
  const names = Object.keys(enums.schemas).filter((n) => n.endsWith("Status") || EXTRA_SETS.includes(n));
  return new Map(names.map((n) => [n, enums.schemas[n]?.enum ?? []]));
}

/** The argument of a file's `expectReached(...)`, read as the literal it must be. */
function declaredStates(source: string, file: string): string[] {
  // A top-level call, at the start of a line (a journey file declares once, before its tests).
  const at = source.search(/^expectReached\(/m);
  if (at < 0) return [];
  const close = source.indexOf("});", at);
  const literal = source.slice(at + "expectReached(".length, close + 1);
  const json = literal.replace(/([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '"$1":').replace(/,(\s*[}\]])/g, "$1");
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new Error(`${file}: expectReached must be called with a literal object of string arrays`);
  }
  return Object.entries(parsed).flatMap(([name, values]) => {
    if (!Array.isArray(values) || values.some((v) => typeof v !== "string"))
      throw new Error(`${file}: expectReached({ ${name}: ... }) must list string literals`);
    return (values as string[]).map((v) => `${name}.${v}`);
  });
}

/** State -> the journey files declaring it. */
function reachedByJourneys(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of readdirSync(JOURNEYS)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()) {
    for (const state of declaredStates(readFileSync(join(JOURNEYS, file), "utf8"), file)) {
      out.set(state, [...(out.get(state) ?? []), file]);
    }
  }
  return out;
}

/** The bullets under the unreachable heading of docs/decisions.md: state -> reason. */
function unreachableStates(decisions: string): Map<string, string> {
  const start = decisions.indexOf(HEADING);
  if (start < 0) return new Map();
  const rest = decisions.slice(start + HEADING.length);
  const end = rest.search(/^#{2,3} /m);
  const out = new Map<string, string>();
  for (const line of (end < 0 ? rest : rest.slice(0, end)).split("\n")) {
    const m = /^- ([A-Za-z]+\.[a-z0-9_]+): (.*)$/.exec(line.trim());
    if (m?.[1]) out.set(m[1], (m[2] ?? "").trim());
  }
  return out;
}

describe("reachability of the seed's states (issue 30 item 4)", () => {
  const decisions = readFileSync(join(PROJECT_ROOT, "docs", "decisions.md"), "utf8");
  const sets = stateSets();
  const all = [...sets].flatMap(([name, values]) => values.map((v) => `${name}.${v}`));
  const reached = reachedByJourneys();
  const unreachable = unreachableStates(decisions);

  test("the state sets are the seed's: the named sets are all there", () => {
    for (const name of ["EntityDraftStatus", "McpApprovalStatus", "CompanyStatus", "ProposalStatus", "KycStatus"])
      expect(sets.has(name), name).toBe(true);
    for (const name of EXTRA_SETS) expect(sets.has(name), name).toBe(true);
  });

  test("every state is reached by a journey or listed as unreachable with its reason", () => {
    const missing = all.filter((s) => !reached.has(s) && !unreachable.has(s));
    expect(missing, `states no journey declares and ${HEADING} does not list:\n${missing.join("\n")}`).toEqual([]);
  });

  test("journeys and the unreachable list name known states only, and never the same state", () => {
    const known = new Set(all);
    const tracked = [...reached.keys()].filter((s) => sets.has(s.split(".")[0] ?? ""));
    expect(
      tracked.filter((s) => !known.has(s)),
      "declared by a journey but not a state",
    ).toEqual([]);
    expect(
      [...unreachable.keys()].filter((s) => !known.has(s)),
      "listed unreachable but not a state",
    ).toEqual([]);
    const both = [...unreachable.keys()].filter((s) => reached.has(s)).map((s) => `${s} (${reached.get(s)})`);
    expect(both, "listed unreachable, yet a journey reaches it").toEqual([]);
    const blank = [...unreachable].filter(([, reason]) => reason.length < 10).map(([s]) => s);
    expect(blank, "unreachable states need a reason").toEqual([]);
  });

  test("the declaration reader takes literals only", () => {
    expect(declaredStates(`expectReached({\n  A: ["x", "y"],\n  B: [],\n});`, "f")).toEqual(["A.x", "A.y"]);
    expect(() => declaredStates("expectReached({ A: STATES });", "f")).toThrow(/literal/);
    expect(unreachableStates(`${HEADING}\n- A.b: a reason here\n- not a bullet\n## Next\n- C.d: x`)).toEqual(
      new Map([["A.b", "a reason here"]]),
    );
  });
});
