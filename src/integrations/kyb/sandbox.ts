import { randomBytes } from "node:crypto";
import { signWebhook } from "../../auth/webhook-signature.ts";
import {
  type KybCheckRequest,
  type KybCheckSession,
  type KybProvider,
  KybProviderError,
  type KybVerdict,
} from "./provider.ts";

/**
 * The default KYB provider: deterministic and offline. Registration numbers starting `sandbox-unavailable` make it
 * fail (the ProviderUnavailable path); the verdict it will report is chosen by the registration number too
 * (`sandboxKybVerdict`), so tests and demos pick approved, denied, suspected or pending.
 */
export class SandboxKybProvider implements KybProvider {
  readonly name = "sandbox";

  async startCheck(request: KybCheckRequest): Promise<KybCheckSession> {
    if (request.registrationNumber.startsWith("sandbox-unavailable")) throw new KybProviderError("sandbox outage");
    return { scanRef: `sbx-kyb-${randomBytes(12).toString("hex")}` };
  }
}

/** The verdict the sandbox reports for a registration number: the first of denied, suspected, pending it contains. */
export function sandboxKybVerdict(registrationNumber: string): KybVerdict["verdict"] {
  const lower = registrationNumber.toLowerCase();
  for (const verdict of ["denied", "suspected", "pending"] as const) if (lower.includes(verdict)) return verdict;
  return "approved";
}

/**
 * What the sandbox posts back when its check ends: a JSON-RPC call of kybservice.handle_kyb_webhook, signed like
 * every provider webhook (API.md "Webhooks": HMAC-SHA256 over `<t>.<raw body>`).
 */
export function sandboxKybCallback(
  secret: string,
  verdict: KybVerdict,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: verdict.event_id,
    method: "kybservice.handle_kyb_webhook",
    params: { data: verdict },
  });
  return { body, headers: { "x-webhook-signature": signWebhook(secret, body, Math.floor(now.getTime() / 1000)) } };
}
