import { describe, expect, test } from "vitest";
import {
  type AudienceWindow,
  currentAudience,
  decideVisibility,
  type RoleWindow,
  roleGrantsView,
  tiersIntersect,
  windowsOverlap,
} from "../../src/domain/document-visibility.ts";

const T = (iso: string) => new Date(`2026-${iso}T00:00:00.000Z`);
const COMPANY = "FZ-2026-Y000001";
const ALICE = "FZ-2026-RA000001";
const BOB = "FZ-2026-RA000002";

function audience(extra: Partial<AudienceWindow> = {}): AudienceWindow {
  return {
    sid: "01-aud",
    company_id: COMPANY,
    classification: ["shareholder"],
    document_relevant_from: T("03-01"),
    document_relevant_to: T("06-01"),
    supersedes: null,
    ...extra,
  };
}

function role(extra: Partial<RoleWindow> = {}): RoleWindow {
  return {
    sid: "01-role",
    company_id: COMPANY,
    subject_id: ALICE,
    valid_from: T("01-01"),
    valid_to: null,
    classification_scope: ["shareholder"],
    ...extra,
  };
}

describe("windowsOverlap (half-open windows, null end open)", () => {
  const cases: [string, Date, Date | null, Date, Date | null, boolean][] = [
    ["inside", T("02-01"), T("03-01"), T("01-01"), T("04-01"), true],
    ["partly before", T("01-01"), T("02-15"), T("02-01"), T("03-01"), true],
    ["partly after", T("02-15"), T("04-01"), T("02-01"), T("03-01"), true],
    ["identical", T("02-01"), T("03-01"), T("02-01"), T("03-01"), true],
    ["a ends exactly where b starts", T("01-01"), T("02-01"), T("02-01"), T("03-01"), false],
    ["a starts exactly where b ends", T("03-01"), T("04-01"), T("02-01"), T("03-01"), false],
    ["a ends one millisecond after b starts", T("01-01"), new Date(T("02-01").getTime() + 1), T("02-01"), null, true],
    ["a starts one millisecond before b ends", new Date(T("03-01").getTime() - 1), null, T("02-01"), T("03-01"), true],
    ["disjoint before", T("01-01"), T("01-15"), T("02-01"), T("03-01"), false],
    ["disjoint after", T("04-01"), T("05-01"), T("02-01"), T("03-01"), false],
    ["both open", T("05-01"), null, T("01-01"), null, true],
    ["a open, starting after b closed", T("03-01"), null, T("02-01"), T("03-01"), false],
    ["a open, starting before b closed", T("02-15"), null, T("02-01"), T("03-01"), true],
    ["empty a inside b", T("02-15"), T("02-15"), T("02-01"), T("03-01"), false],
    ["empty b inside a", T("01-01"), null, T("02-15"), T("02-15"), false],
  ];
  test.each(cases)("%s", (_name, aFrom, aTo, bFrom, bTo, expected) => {
    expect(windowsOverlap(aFrom, aTo, bFrom, bTo)).toBe(expected);
    expect(windowsOverlap(bFrom, bTo, aFrom, aTo)).toBe(expected);
  });
});

describe("tiersIntersect", () => {
  test("one shared tier is enough; none, or an empty side, is not", () => {
    expect(tiersIntersect(["founder", "shareholder"], ["shareholder"])).toBe(true);
    expect(tiersIntersect(["director"], ["shareholder", "founder"])).toBe(false);
    expect(tiersIntersect([], ["shareholder"])).toBe(false);
    expect(tiersIntersect(["shareholder"], [])).toBe(false);
  });
});

describe("roleGrantsView", () => {
  test("a current role overlapping a closed window with a shared tier grants view", () => {
    expect(roleGrantsView(role(), audience())).toBe(true);
  });

  test("a past holder keeps view for its period: the role ended, but it overlapped the window", () => {
    expect(roleGrantsView(role({ valid_from: T("01-01"), valid_to: T("04-01") }), audience())).toBe(true);
  });

  test("a holder who left before the document became relevant never gains view", () => {
    expect(roleGrantsView(role({ valid_to: T("02-01") }), audience())).toBe(false);
  });

  test("a joiner after the window closed gains none", () => {
    expect(roleGrantsView(role({ valid_from: T("07-01") }), audience())).toBe(false);
  });

  test("edge instants: a role ending exactly at relevant_from, or starting exactly at relevant_to, has no view", () => {
    expect(roleGrantsView(role({ valid_to: T("03-01") }), audience())).toBe(false);
    expect(roleGrantsView(role({ valid_from: T("06-01") }), audience())).toBe(false);
  });

  test("edge instants: a role starting at relevant_from, or ending one ms after it, has view", () => {
    expect(roleGrantsView(role({ valid_from: T("03-01") }), audience())).toBe(true);
    expect(roleGrantsView(role({ valid_to: new Date(T("03-01").getTime() + 1) }), audience())).toBe(true);
    expect(roleGrantsView(role({ valid_from: new Date(T("06-01").getTime() - 1) }), audience())).toBe(true);
  });

  test("a later joiner of a live document (open window) gains view", () => {
    expect(roleGrantsView(role({ valid_from: T("09-01") }), audience({ document_relevant_to: null }))).toBe(true);
  });

  test("an empty role window (closed where it started) grants nothing", () => {
    expect(roleGrantsView(role({ valid_from: T("04-01"), valid_to: T("04-01") }), audience())).toBe(false);
  });

  test("a scope that does not intersect the classification grants nothing", () => {
    expect(roleGrantsView(role({ classification_scope: ["director"] }), audience())).toBe(false);
    expect(roleGrantsView(role({ classification_scope: [] }), audience())).toBe(false);
  });

  test("a role in another company grants nothing", () => {
    expect(roleGrantsView(role({ company_id: "FZ-2026-Y000002" }), audience())).toBe(false);
  });
});

describe("currentAudience", () => {
  test("no rows: none", () => {
    expect(currentAudience([])).toBeNull();
  });

  test("the newest row that no other row supersedes", () => {
    const a = audience({ sid: "01" });
    const b = audience({ sid: "02", supersedes: "01", classification: ["founder"] });
    expect(currentAudience([a, b])).toBe(b);
    expect(currentAudience([b, a])).toBe(b);
  });

  test("a superseded row is never current, even when it is the newest", () => {
    const older = audience({ sid: "01", supersedes: "03" });
    const superseded = audience({ sid: "03" });
    expect(currentAudience([superseded, older])).toBe(older);
  });

  test("among several rows not superseded, the newest", () => {
    const rows = [audience({ sid: "01" }), audience({ sid: "03" }), audience({ sid: "02" })];
    expect(currentAudience(rows)?.sid).toBe("03");
  });
});

describe("decideVisibility", () => {
  test("no audience row means no view", () => {
    expect(decideVisibility([], [role()], [ALICE])).toEqual({
      canView: false,
      reason: "no_audience_row",
      audience: null,
      role: null,
    });
  });

  test("a matching role of one of the subjects grants view and is named", () => {
    const r = role({ sid: "r1" });
    const d = decideVisibility([audience()], [r], [BOB, ALICE]);
    expect(d).toMatchObject({ canView: true, reason: "role_overlap", role: r });
    expect(d.audience?.sid).toBe("01-aud");
  });

  test("another subject's role never counts", () => {
    expect(decideVisibility([audience()], [role()], [BOB])).toMatchObject({
      canView: false,
      reason: "no_matching_role",
      role: null,
    });
  });

  test("no subjects: no view", () => {
    expect(decideVisibility([audience()], [role()], []).canView).toBe(false);
  });

  test("the superseding row decides: a narrowed classification takes view away", () => {
    const first = audience({ sid: "01", classification: ["shareholder"] });
    const narrowed = audience({ sid: "02", supersedes: "01", classification: ["founder"] });
    expect(decideVisibility([first], [role()], [ALICE]).canView).toBe(true);
    expect(decideVisibility([first, narrowed], [role()], [ALICE])).toMatchObject({
      canView: false,
      reason: "no_matching_role",
    });
  });

  test("the superseding row decides: a closed window keeps past holders and shuts out later joiners", () => {
    const live = audience({ sid: "01", document_relevant_to: null });
    const closed = audience({ sid: "02", supersedes: "01", document_relevant_to: T("06-01") });
    const joiner = role({ subject_id: BOB, valid_from: T("07-01") });
    expect(decideVisibility([live], [joiner], [BOB]).canView).toBe(true);
    expect(decideVisibility([live, closed], [joiner], [BOB]).canView).toBe(false);
    expect(decideVisibility([live, closed], [role()], [ALICE]).canView).toBe(true);
  });

  test("of several granting roles the newest is named", () => {
    const d = decideVisibility([audience()], [role({ sid: "r1" }), role({ sid: "r3" }), role({ sid: "r2" })], [ALICE]);
    expect(d.role?.sid).toBe("r3");
  });
});
