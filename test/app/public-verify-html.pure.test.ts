import { describe, expect, test } from "vitest";
import { escapeHtml, verdictPage } from "../../src/app/public-verify-html.ts";
import { publicVerifyKey, publicVerifySignatureValid, publicVerifyUrl } from "../../src/domain/public-verify-url.ts";

describe("the public verify page", () => {
  test("every value from the result is HTML-escaped", () => {
    const hostile = `<script>alert("x")</script>&'`;
    const html = verdictPage("company", {
      company_id: hostile,
      tier: 3,
      anonymity_applied: false,
      verified: true,
      name: hostile,
      directors: [hostile, "Ada L."],
      checked_at: hostile,
    });
    expect(html).not.toContain("<script");
    expect(html).not.toContain(`"x"`);
    expect(html).toContain(escapeHtml(hostile));
    expect(escapeHtml(hostile)).toBe("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;");
  });

  test("null fields are left out and the masked note shows when anonymity applied", () => {
    const html = verdictPage("individual", {
      resident_id: null,
      tier: 1,
      anonymity_applied: true,
      verified: false,
      status: "active",
      public_key: null,
      checked_at: "2026-11-23T10:00:00.000Z",
    });
    expect(html).toContain("Not verified");
    expect(html).toContain("only the verdict is shown");
    expect(html).not.toContain("Resident id");
    expect(html).not.toContain("Public key");
  });
});

describe("publicVerifySignatureValid", () => {
  const key = publicVerifyKey(Buffer.alloc(32, 1));
  const sig = new URL(publicVerifyUrl("http://x", key, "individual", "FZX-abc")).searchParams.get("sig") ?? "";

  test("accepts the signature exactly as issued, nothing else spelling the same bytes", () => {
    expect(publicVerifySignatureValid(key, "individual", "FZX-abc", sig)).toBe(true);
    // base64url decoding skips characters outside the alphabet and the last character's spare bits.
    const lastSpare = sig.slice(0, -1) + String.fromCharCode(sig.charCodeAt(42) ^ 1);
    for (const other of [`${sig}!`, `!${sig}`, `${sig}=`, lastSpare, "", sig.slice(0, -1)]) {
      expect(publicVerifySignatureValid(key, "individual", "FZX-abc", other)).toBe(false);
    }
  });
});
