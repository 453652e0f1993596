import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "./support.ts";

// x-mcp.readOnly means "writes nothing but its audit row and rate-limit counters" (docs/decisions.md): read-only
// methods open no transaction. Pinned on the implemented handlers whose code was checked, and on the methods
// the seeds make write.
const tools = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "mcp-tools.json"), "utf8")) as {
  method: string;
  annotations: { readOnlyHint: boolean };
}[];
const readOnly = new Map(tools.map((t) => [t.method, t.annotations.readOnlyHint]));

/** Implemented handlers (or seed semantics) that write rows of their own. */
const WRITES = [
  "authservice.register",
  "authservice.login", // sessions, MFA challenges
  "authservice.login_mfa",
  "authservice.refresh_token",
  "authservice.logout",
  "authservice.send_verification_email",
  "authservice.verify_email", // spends the single-use token
  "authservice.change_password",
  "authservice.request_password_reset",
  "authservice.reset_password",
  "authservice.user_totp_enroll_begin",
  "authservice.user_totp_enroll_confirm",
  "authservice.user_totp_verify",
  "authservice.user_totp_disable",
  "authservice.begin_2fa_recovery",
  "authservice.handle_recovery_webhook",
  "apikeyservice.generate",
  "apikeyservice.generate_personal",
  "apikeyservice.revoke",
  "apikeyservice.rotate",
  "apikeyservice.update_personal",
  "apikeyservice.mint_assistant_key",
  "adminservice.suspend_user",
  "adminservice.unsuspend_user",
  "mcpapprovalservice.approve",
  "mcpapprovalservice.reject",
  "mcpapprovalservice.admin_approve",
  "mcpapprovalservice.admin_reject",
  "mcpapprovalservice.expire_stale",
  "partnerservice.create_partner",
  "partnerservice.deactivate_partner",
  "partnerservice.rotate_partner_credentials",
  "partnerservice.update_partner",
  "userauditlogservice.log",
  "frontenderrorservice.log",
  // Flipped after review (issue 12): single-use links spent, a quote stored.
  "verificationservice.verify_individual",
  "verificationservice.verify_company",
  "verificationservice.verify_by_token",
  "treasuryoperationsservice.get_exchange_quote",
];

/** Implemented handlers checked to write nothing but audit rows and rate-limit counters. */
const READS = [
  "authservice.me",
  "authservice.poll_2fa_recovery",
  "apikeyservice.list_personal",
  "adminservice.list_admin_actions",
  "creditservice.get_pricing",
  "mcpapprovalservice.list_pending",
  "mcpapprovalservice.get",
  "mcpapprovalservice.admin_list",
  "mcpapprovalservice.admin_get",
  "mcpcalllogservice.list",
  "mcpcalllogservice.admin_list",
  "partnerservice.list_partners",
  "pricingservice.calculate_company_pricing",
  "pricingservice.get_all_pricing",
  "pricingservice.get_shareholder_fee_rate",
  "userauditlogservice.list_for_subject",
  "userauditlogservice.list_for_target",
];

describe("x-mcp.readOnly", () => {
  test.each(WRITES)("%s writes, so it is not read-only", (method) => {
    expect(readOnly.get(method)).toBe(false);
  });
  test.each(READS)("%s writes nothing of its own and is read-only", (method) => {
    expect(readOnly.get(method)).toBe(true);
  });
});
