import { randomBytes } from "node:crypto";
import { sandboxKycCallback, sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import { sandboxPaymentCallback } from "../../src/integrations/payments/sandbox-callbacks.ts";
import { DemoError, type RpcClient, Skipped } from "./client.ts";

/**
 * The sandbox providers' part of the demo: the verdicts the sandbox KYC and mobile-money providers would post, signed
 * with the deployment's webhook secret and posted to the public /rpc endpoint as the providers post them.
 */
export interface Sandbox {
  /** WEBHOOK_SECRET of the server the demo fills. */
  secret: string;
  /** The server's clock (the signature's timestamp must fall in its tolerance window). */
  now: () => Date;
}

const eventId = (prefix: string) => `${prefix}-demo-${randomBytes(8).toString("hex")}`;

async function post(rpc: RpcClient, body: string, headers: Record<string, string>, what: string) {
  const res = await rpc.post(body, headers);
  if ("error" in res && res.error.data?.["variant"] === "InvalidWebhookSignature") {
    throw new Skipped(`${what} refused: WEBHOOK_SECRET here is not the server's`);
  }
  if ("error" in res) throw new DemoError(`${what}: ${res.error.message} ${JSON.stringify(res.error.data ?? {})}`);
}

/** The sandbox KYC verdict for a scan reference it opened (approved for the demo names). */
export async function postKycVerdict(rpc: RpcClient, sandbox: Sandbox, scanRef: string): Promise<void> {
  const data = sandboxKycVerdict(scanRef, eventId("evt-kyc"), sandbox.now());
  if (!data) throw new DemoError(`the sandbox KYC provider does not answer for ${scanRef}`);
  const { body, headers } = sandboxKycCallback(sandbox.secret, data, sandbox.now());
  await post(rpc, body, headers, "KYC verdict");
}

/** The sandbox mobile-money provider confirming an order of `amount` USD. */
export async function postPaymentSucceeded(rpc: RpcClient, sandbox: Sandbox, orderId: string, amount: number) {
  const data = {
    event_id: eventId("evt-pay"),
    event_type: "payment.updated",
    order_id: orderId,
    status: "succeeded" as const,
    amount,
    currency: "USD",
    occurred_at: sandbox.now().toISOString(),
  };
  const { body, headers } = sandboxPaymentCallback(sandbox.secret, data, sandbox.now());
  await post(rpc, body, headers, "payment verdict");
}
