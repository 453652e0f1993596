import { describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { cleanPatternList } from "../../src/domain/key-policy.ts";
import { globMatch } from "../../src/mcp/policy.ts";
import { ToolCatalog } from "../../src/mcp/tools.ts";
import { TOOLSETS, toolsetPatterns } from "../../src/mcp/toolsets.ts";

const catalog = new ToolCatalog(createRegistry() as never);
const callable = [...catalog.byName.keys()].filter((name) => catalog.keyCallable(name));

describe("ready-made toolsets", () => {
  test("names are unique and plain; each has a description and patterns", () => {
    const names = TOOLSETS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const set of TOOLSETS) {
      expect(set.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(set.description.length).toBeGreaterThan(10);
      expect(set.patterns.length).toBeGreaterThan(0);
    }
  });

  test("every pattern is a valid tool-name glob and matches at least one tool an API key may call", () => {
    for (const set of TOOLSETS) {
      for (const pattern of set.patterns) {
        expect(cleanPatternList(pattern), `${set.name}: ${pattern}`).toEqual({ value: pattern });
        const matched = callable.filter((name) => globMatch(pattern, name));
        expect(matched.length, `${set.name}: ${pattern} matches no callable tool`).toBeGreaterThan(0);
      }
    }
  });

  test("each toolset fits allowed_tool_patterns (2000 characters) and cuts the catalogue to a few dozen tools", () => {
    for (const set of TOOLSETS) {
      const value = toolsetPatterns([set.name]);
      expect(value.length).toBeLessThanOrEqual(2000);
      const tools = callable.filter((name) => set.patterns.some((p) => globMatch(p, name)));
      expect(tools.length, set.name).toBeLessThanOrEqual(40);
    }
  });

  test("toolsetPatterns joins several toolsets without repeats and refuses an unknown name", () => {
    expect(toolsetPatterns(["expenses", "invoicing"]).split(",")).toEqual([
      "freezone_expenseservice_*",
      "freezone_companyservice_list",
      "freezone_invoiceservice_*",
      "freezone_paymentservice_initiate_invoice_payment",
      "freezone_paymentservice_connect_payment_receiving",
    ]);
    expect(() => toolsetPatterns(["nope"])).toThrow("no toolset named nope");
  });
});
