import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { markdownTable, placeholdersOf, renderTemplate } from "../../src/domain/contract-render.ts";
import { markdownText } from "../../src/domain/text-render.ts";

describe("renderTemplate", () => {
  test("fills every placeholder, spaces inside the braces allowed", () => {
    const r = renderTemplate("# {{entity_name}}\nOn {{ formation_date }}.\n", {
      entity_name: "Acme",
      formation_date: "2026-11-27",
    });
    expect(r.text).toBe("# Acme\nOn 2026-11-27.\n");
    expect(r.missing).toEqual([]);
  });

  test("a placeholder without a value stays as written and is listed once, sorted", () => {
    const r = renderTemplate("{{b}} {{a}} {{b}} {{c}}", { c: "x" });
    expect(r.text).toBe("{{b}} {{a}} {{b}} x");
    expect(r.missing).toEqual(["a", "b"]);
  });

  test("values the body does not use are ignored", () => {
    expect(renderTemplate("plain", { unused: "x" })).toMatchObject({ text: "plain", missing: [] });
  });

  test("a value holding a placeholder is not expanded again", () => {
    const r = renderTemplate("{{a}} {{b}}", { a: "{{b}}", b: "B" });
    expect(r.text).toBe("\\{\\{b\\}\\} B");
    expect(r.missing).toEqual([]);
  });

  test("a value cannot inject markup: links, images, HTML, emphasis, new lines", () => {
    const r = renderTemplate("Name: {{n}}", { n: "**x** [click](http://evil) ![i](y) <script>\n# H" });
    expect(r.text).toBe("Name: \\*\\*x\\*\\* \\[click\\](http://evil) \\!\\[i\\](y) &lt;script&gt; \\# H");
  });

  test("a value starting a line cannot become a list item or an ordered item", () => {
    expect(renderTemplate("{{a}}\n{{b}}", { a: "- item", b: "12. item" }).text).toBe("\\- item\n12\\. item");
  });

  test("numbers render as plain text; inherited names are not values", () => {
    expect(renderTemplate("{{n}} {{constructor}}", { n: 42 })).toMatchObject({
      text: "42 {{constructor}}",
      missing: ["constructor"],
    });
  });

  test("the output and its hash are deterministic and the hash is SHA-256 of the text", () => {
    const a = renderTemplate("{{x}}", { x: "é" });
    const b = renderTemplate("{{x}}", { x: "é" });
    expect(a).toEqual(b);
    expect(a.sha256).toBe(createHash("sha256").update("é", "utf8").digest("hex"));
  });

  test("a table value renders as a markdown table with escaped cells", () => {
    const r = renderTemplate("{{t}}", {
      t: {
        columns: ["Name", "Shares"],
        rows: [["Ada | Co", 10], ["Bob", 5, "extra"], ["Cy"]],
      },
    });
    expect(r.text).toBe("| Name | Shares |\n| --- | --- |\n| Ada \\| Co | 10 |\n| Bob | 5 |\n| Cy |  |");
  });
});

describe("helpers", () => {
  test("markdownText trims and joins lines", () => {
    expect(markdownText("  a\r\nb\tc ")).toBe("a b c");
  });

  test("markdownTable of no rows is the header alone", () => {
    expect(markdownTable({ columns: ["A"], rows: [] })).toBe("| A |\n| --- |");
  });

  test("placeholdersOf lists names once, in order of appearance", () => {
    expect(placeholdersOf("{{b}} {{ a }} {{b}}")).toEqual(["b", "a"]);
  });
});
