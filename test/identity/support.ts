import { loadConfig, type RateLimitConfig } from "../../src/config.ts";
import type { RpcReply, TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";

/** The newest email of `template` to `to`, and the code it carries (the raw token). */
export async function lastEmail(
  t: TestApp,
  to: string,
  template: string,
): Promise<{ subject: string; body: string; code: string } | null> {
  const rows = await sql<{ subject: string; body_text: string }>(
    t,
    `select subject, body_text from "email_outbox" where to_email = ? and template = ? and status = 'sent' order by sid desc limit 1`,
    [to, template],
  );
  const row = rows[0];
  if (!row) return null;
  const code = /enter this code: (\S+)/.exec(row.body_text)?.[1] ?? "";
  return { subject: row.subject, body: row.body_text, code };
}

/** The default limits with some changed. */
export function limits(changes: Partial<RateLimitConfig>): RateLimitConfig {
  return { ...loadConfig({}).rateLimits, ...changes };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** TOTP helpers: the code an authenticator would show now (or `offsetS` later). */
export async function totpNow(t: TestApp, secret: string, offsetS = 0): Promise<string> {
  const { totpCode } = await import("../../src/domain/totp.ts");
  return totpCode(secret, Math.floor(t.clock.now().getTime() / 1000) + offsetS);
}

/** Turns TOTP on for a client; returns the secret and the backup codes. The clock moves one step past the code. */
export async function enrolTotp(
  t: TestApp,
  client: { rpc(method: string, params?: unknown): Promise<RpcReply> },
): Promise<{ secret: string; backupCodes: string[] }> {
  const begin = await client.rpc("authservice.user_totp_enroll_begin", {});
  const secret: string = begin.result.secret;
  const confirm = await client.rpc("authservice.user_totp_enroll_confirm", { code: await totpNow(t, secret) });
  if (!confirm.result) throw new Error(`enrol failed: ${JSON.stringify(confirm.body)}`);
  t.clock.advance(30);
  return { secret, backupCodes: confirm.result.backup_codes };
}
