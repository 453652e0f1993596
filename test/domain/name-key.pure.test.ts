import { describe, expect, test } from "vitest";
import { nameKey } from "../../src/domain/name-key.ts";

const LIVE = "Harbour Software FZC";
const key = nameKey(LIVE);

describe("nameKey", () => {
  test("the look-alikes of issue 29 (zero-width space, no-break space) have the live name's key", () => {
    expect(key).toBe("harbour software fzc");
    expect(nameKey("Harbour Software FZC\u200b")).toBe(key);
    expect(nameKey("Harbour\u00a0Software FZC")).toBe(key);
  });

  test("format characters and other invisibles anywhere are removed", () => {
    for (const invisible of [
      "\u200b", // zero-width space
      "\u200c", // zero-width non-joiner
      "\u200d", // zero-width joiner
      "\u2060", // word joiner
      "\ufeff", // BOM
      "\u00ad", // soft hyphen
      "\u200e", // left-to-right mark
      "\u202e", // right-to-left override
      "\u2066", // left-to-right isolate
      "\u034f", // combining grapheme joiner
      "\ufe0f", // variation selector 16
      "\u3164", // Hangul filler
      "\u0080", // C1 control
      "\u{e0041}", // tag letter A
    ]) {
      expect(nameKey(`${invisible}Harbour Soft${invisible}ware FZC${invisible}`)).toBe(key);
    }
  });

  test("every kind of whitespace is one space; leading, trailing and repeated spaces do not count", () => {
    expect(nameKey("  Harbour   Software\tFZC \n")).toBe(key);
    for (const space of ["\u00a0", "\u2007", "\u202f", "\u2002", "\u3000", "\u1680", "\u0085", "\u2028"]) {
      expect(nameKey(`Harbour${space}Software${space}${space}FZC`)).toBe(key);
    }
  });

  test("fullwidth and other compatibility forms are their plain letters", () => {
    expect(nameKey("Ｈａｒｂｏｕｒ Ｓｏｆｔｗａｒｅ ＦＺＣ")).toBe(key);
    expect(nameKey("Boﬅon FZC")).toBe(nameKey("Boston FZC")); // the ligature st
    expect(nameKey("ﬁne")).toBe(nameKey("fine"));
  });

  test("a precomposed letter and its combining sequence are one key, even split by an invisible", () => {
    const composed = nameKey("Caf\u00e9 FZC");
    expect(nameKey("Cafe\u0301 FZC")).toBe(composed);
    expect(nameKey("Cafe\u200b\u0301 FZC")).toBe(composed);
    expect(composed).not.toBe(nameKey("Cafe FZC"));
  });

  test("case does not count", () => {
    expect(nameKey("HARBOUR software fzc")).toBe(key);
    expect(nameKey("ΟΔΟΣ")).toBe(nameKey("οδος"));
  });

  test("names that look different stay distinct", () => {
    expect(nameKey("Harbour Softwares FZC")).not.toBe(key);
    expect(nameKey("HarbourSoftware FZC")).not.toBe(key);
    expect(nameKey("Harbour Software FZE")).not.toBe(key);
    expect(nameKey("Straße FZC")).not.toBe(nameKey("Strasse FZC"));
  });

  test("a name of invisibles and spaces only has an empty key", () => {
    expect(nameKey("\u200b\u00a0\ufeff ")).toBe("");
  });

  test("the key is its own key (idempotent)", () => {
    for (const name of [LIVE, "Cafe\u0301 FZC", "Ｈａｒｂｏｕｒ", "ΟΔΟΣ", "İstanbul FZC", "Ⅻ Holdings"]) {
      expect(nameKey(nameKey(name))).toBe(nameKey(name));
    }
  });
});
