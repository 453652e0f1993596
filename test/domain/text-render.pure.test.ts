import { describe, expect, test } from "vitest";
import {
  htmlText,
  isSingleLine,
  isTextBlock,
  markdownText,
  singleLine,
  textBlock,
} from "../../src/domain/text-render.ts";
import { ATTACKS, liveMarkup } from "../support/markup.ts";

describe("markdownText (official documents, contracts, tax documents)", () => {
  test.each(Object.entries(ATTACKS))("%s stays inert text on one line, after a list marker too", (_, attack) => {
    const value = markdownText(attack);
    expect(value).not.toMatch(/[\r\n]/);
    expect(liveMarkup(`- Name: ${value}`)).toEqual([]);
    expect(liveMarkup(`- ${value}`)).toEqual([]);
    expect(liveMarkup(value)).toEqual([]);
  });

  test("the exact escapes: headings, links, tags as entities", () => {
    expect(markdownText(ATTACKS.heading)).toBe("\\# OFFICIAL: this company holds a banking licence");
    expect(markdownText(ATTACKS.javascriptLink)).toBe("\\[x\\](javascript:alert(1))");
    expect(markdownText(ATTACKS.imageTag)).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(markdownText(ATTACKS.newlineAddress)).toBe(
      "1 Main St \\# OFFICIAL: banking licence granted - Licence number: BANK-1",
    );
  });

  test("block markers at the start of a value and the value's own entities are neutralised", () => {
    expect(markdownText("> quoted")).toBe("&gt; quoted");
    expect(markdownText("- item")).toBe("\\- item");
    expect(markdownText("+ item")).toBe("\\+ item");
    expect(markdownText("1. item")).toBe("1\\. item");
    expect(markdownText("2) item")).toBe("2\\) item");
    expect(markdownText("&lt;b&gt;")).toBe("&amp;lt;b&amp;gt;");
    expect(markdownText("`code` *em* _em_ ~~del~~ ![i](u) a|b {{x}}")).toBe(
      "\\`code\\` \\*em\\* \\_em\\_ \\~\\~del\\~\\~ \\!\\[i\\](u) a\\|b \\{\\{x\\}\\}",
    );
  });

  test("control characters and Unicode line separators become single spaces", () => {
    expect(markdownText("a\u0000b\u0085c\u2028d\u2029e\u007f\u001bf")).toBe("a b c d e f");
  });
});

describe("singleLine (plain-text emails, subjects, PDF lines, inbox notices)", () => {
  test.each(Object.entries(ATTACKS))("%s cannot start a new line", (_, attack) => {
    expect(singleLine(attack)).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
  });

  test("a header injection in a subject value is one line", () => {
    expect(singleLine("Acme\r\nBcc: victim@example.org")).toBe("Acme Bcc: victim@example.org");
  });

  test("plain text keeps markup characters as they are (no markup in plain text)", () => {
    expect(singleLine(ATTACKS.imageTag)).toBe(ATTACKS.imageTag);
  });
});

describe("textBlock (multi-line notes in plain-text emails and PDFs)", () => {
  test("keeps lines and tabs, normalises CR LF, drops other control characters", () => {
    expect(textBlock(" a\r\nb\rc\u2028d\te\u0000\u001b\u007f\u0085f ")).toBe("a\nb\nc\nd\tef");
  });
});

describe("htmlText (HTML email bodies)", () => {
  test.each(Object.entries(ATTACKS))("%s has no live tag or attribute", (_, attack) => {
    const html = htmlText(attack);
    expect(html).not.toMatch(/[<>"']/);
  });

  test("the five characters HTML gives meaning to are entities", () => {
    expect(htmlText(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(htmlText(ATTACKS.imageTag)).toBe("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("the input rules", () => {
  test("one-line values refuse line breaks, tabs and control characters", () => {
    for (const bad of ["a\nb", "a\rb", "a\tb", "a\u0000", "a\u007f", "a\u0085", "a\u2028b", "a\u009b"]) {
      expect(isSingleLine(bad)).toBe(false);
    }
    expect(isSingleLine(ATTACKS.heading)).toBe(true);
    expect(isSingleLine("Zürich, 8001 – Schweiz ✓")).toBe(true);
  });

  test("multi-line values keep line breaks and tabs but refuse other control characters", () => {
    expect(isTextBlock("line one\r\nline two\tend")).toBe(true);
    for (const bad of ["a\u0000", "a\u0007", "a\u000b", "a\u001b", "a\u007f", "a\u0085"]) {
      expect(isTextBlock(bad)).toBe(false);
    }
  });
});
