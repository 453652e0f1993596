import type { KybVerdict } from "../../src/integrations/kyb/index.ts";
import { sandboxKybCallback, sandboxKybVerdict } from "../../src/integrations/kyb/sandbox.ts";
import type { Client, TestApp } from "../support/app.ts";
import { insertRow, residentValues } from "../support/rows.ts";

let residents = 0;

/** A signed-in user with a personal resident (what submitting a company needs); returns its resident id. */
export async function userWithResident(t: TestApp, email: string): Promise<{ client: Client; residentId: string }> {
  const client = await t.register(email);
  residents += 1;
  const residentId = `FZ-2025-RA${String(residents).padStart(6, "0")}`;
  await insertRow(
    t.app.runtime.orm,
    "DigitalResident",
    residentValues(client.userId, { resident_id: residentId, email }),
  );
  return { client, residentId };
}

let events = 0;

/** The sandbox provider's verdict for a scan reference (chosen by the registration number unless given). */
export function kybVerdict(
  t: TestApp,
  scanRef: string,
  registrationNumber: string,
  changes: Partial<KybVerdict> = {},
): KybVerdict {
  events += 1;
  return {
    event_id: `kyb-evt-${events}`,
    scan_ref: scanRef,
    verdict: sandboxKybVerdict(registrationNumber),
    reason: null,
    checked_at: t.clock.now().toISOString(),
    ...changes,
  };
}

/** Posts the provider's signed callback to /rpc, as the sandbox would. */
export function deliver(t: TestApp, verdict: KybVerdict, secret = t.config.webhookSecret, at = t.clock.now()) {
  const { body, headers } = sandboxKybCallback(secret, verdict, at);
  return t.post("/rpc", body, headers);
}
