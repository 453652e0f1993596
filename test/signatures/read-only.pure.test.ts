import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

/**
 * x-mcp.readOnly means "writes nothing but audit rows and rate-limit counters" (docs/decisions.md): such methods
 * run without a transaction. Pinned for the operations of this area, whose handlers were checked.
 */
const tools = JSON.parse(readFileSync(new URL("../../generated/mcp-tools.json", import.meta.url), "utf8")) as {
  method: string;
  annotations: { readOnlyHint: boolean };
}[];
const readOnly = new Map(tools.map((t) => [t.method, t.annotations.readOnlyHint]));

const WRITES = [
  "keypairservice.store_client_keypair",
  "documentservice.submit_signed",
  "verificationservice.verify_individual", // spends a single-use link at tier 3
  "verificationservice.verify_company",
  "verificationservice.verify_by_token",
  "verificationservice.create_verification_link",
  "verificationservice.revoke_verification_link",
  "verificationservice.delete_inactive_links",
];
const READS = [
  "keypairservice.get_encrypted_private_key",
  "keypairservice.verify_signature",
  "documentservice.verify",
  "documentservice.get_key_status",
  "publickeyhistoryservice.get_history",
  "publickeyhistoryservice.get_by_version",
  "publickeyhistoryservice.verify_with_history",
  "verificationservice.list_verification_links",
  "verificationservice.public_verify_url",
];

describe("x-mcp.readOnly of keys, signatures and verification", () => {
  test.each(WRITES)("%s writes, so it is not read-only", (method) => {
    expect(readOnly.get(method)).toBe(false);
  });
  test.each(READS)("%s writes nothing and is read-only", (method) => {
    expect(readOnly.get(method)).toBe(true);
  });
});
