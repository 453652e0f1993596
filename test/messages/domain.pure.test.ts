import { describe, expect, test } from "vitest";
import { actionUrl, MAX_MESSAGE_BODY, MAX_MESSAGE_TITLE, messageText } from "../../src/domain/messages.ts";

describe("message texts", () => {
  test("trimmed; the longest pass; blank or longer refused", () => {
    expect(messageText(" a ", " b ")).toEqual({ title: "a", body: "b" });
    const t = "t".repeat(MAX_MESSAGE_TITLE);
    const b = "b".repeat(MAX_MESSAGE_BODY);
    expect(messageText(t, b)).toEqual({ title: t, body: b });
    expect(messageText(`${t}t`, "b")).toMatchObject({ refusal: "InvalidInput", details: { field: "title" } });
    expect(messageText("t", `${b}b`)).toMatchObject({ refusal: "InvalidInput", details: { field: "body" } });
    expect(messageText(" ", "b")).toMatchObject({ details: { field: "title" } });
    expect(messageText("t", "\n")).toMatchObject({ details: { field: "body" } });
  });

  test("action links: none when absent or blank; https only", () => {
    expect(actionUrl(undefined)).toBeNull();
    expect(actionUrl("  ")).toBeNull();
    expect(actionUrl(" https://a.example/p?q=1 ")).toBe("https://a.example/p?q=1");
    for (const bad of ["http://a.example", "javascript:alert(1)", "data:text/html,x", "a.example", "https//x"]) {
      expect(actionUrl(bad)).toMatchObject({ refusal: "InvalidInput", details: { field: "action_url" } });
    }
  });
});
