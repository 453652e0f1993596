import { expect, test } from "vitest";
import { totpCode } from "../../src/domain/totp.ts";
import { sandboxRecoveryCallback } from "../../src/integrations/identity/sandbox.ts";
import { sandboxKycVerdict } from "../../src/integrations/identity/sandbox-kyc.ts";
import { PASSWORD } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import { journeyCast } from "./support.ts";

// Seed 000, second factor: a resident turns TOTP on, loses the device and, with the password still known, asks for
// an identity re-verification (there is no administrator reset). The identity provider denies a first attempt, a
// second one runs out of time, and a third confirms the same identity: TOTP goes off and the password alone signs
// in. The provider is the sandbox's, posting its signed verdicts. Public API only (see support.ts).

expectReached({
  MfaRecoveryStatus: ["pending", "rejected", "expired", "approved"],
});

const cast = journeyCast({ ada: { first_name: "Ada", last_name: "Lovelace" } });

test("second-factor recovery: denied, expired, then confirmed by the identity provider", async () => {
  const { zone, ada } = cast;
  const { t } = zone;
  const codeNow = (secret: string) => totpCode(secret, Math.floor(t.clock.now().getTime() / 1000));

  // TOTP on, as an authenticator app enrols it.
  const begin = await ada.client.callOk("authservice.user_totp_enroll_begin", {});
  await ada.client.callOk("authservice.user_totp_enroll_confirm", { code: codeNow(begin.secret) });
  const login = () => t.callOk("authservice.login", { email: ada.email, password: PASSWORD });
  const challenge = async () => {
    const r = await login();
    if (!("mfa_challenge" in r)) throw new Error("login did not ask for the second factor");
    return r.mfa_challenge;
  };
  expect(await login()).toMatchObject({ mfa_required: true });

  // The identity reference the provider gave this person at the first KYC, which it matches again.
  const identity =
    sandboxKycVerdict(ada.kycUrl.split("/").pop() ?? "", "evt-lookup", t.clock.now())?.kyc_provider_id ?? null;
  expect(identity).toMatch(/^sbx-id-/);
  let events = 0;
  const providerSays = async (kycUrl: string, verdict: "approved" | "denied", matched: string | null) => {
    const now = t.clock.now();
    const data = {
      event_id: `evt-rec-${++events}`,
      scan_ref: kycUrl.split("/").pop() ?? "",
      verdict,
      matched_kyc_provider_id: matched,
      reason: verdict === "denied" ? "face does not match" : null,
      occurred_at: now.toISOString(),
    };
    const { body, headers } = sandboxRecoveryCallback(t.config.webhookSecret, data, now);
    const r = await t.post("/rpc", body, headers);
    expect(r.error).toBeUndefined();
  };
  const poll = async (id: string) => (await t.callOk("authservice.poll_2fa_recovery", { recovery_id: id })).status;

  // First attempt: pending, then denied by the provider; the second factor stays on.
  const first = await t.callOk("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
  expect(first.status).toBe("pending");
  expect(await poll(first.recovery_id)).toBe("pending");
  await providerSays(first.kyc_url, "denied", null);
  expect(await poll(first.recovery_id)).toBe("rejected");
  expect(await login()).toMatchObject({ mfa_required: true });

  // Second attempt: the person never finishes; pending a second before the 30 minutes, expired at them.
  const second = await t.callOk("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
  const deadline = new Date(second.expires_at).getTime();
  expect(deadline - t.clock.now().getTime()).toBe(30 * 60_000);
  t.clock.set(new Date(deadline - 1000).toISOString());
  expect(await poll(second.recovery_id)).toBe("pending");
  t.clock.set(new Date(deadline).toISOString());
  expect(await poll(second.recovery_id)).toBe("expired");
  // A verdict arriving late changes nothing.
  await providerSays(second.kyc_url, "approved", identity);
  expect(await poll(second.recovery_id)).toBe("expired");
  expect(await login()).toMatchObject({ mfa_required: true });

  // Third attempt: the provider confirms the same identity; TOTP is off and the password alone signs in.
  const third = await t.callOk("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
  await providerSays(third.kyc_url, "approved", identity);
  expect(await poll(third.recovery_id)).toBe("approved");
  const signedIn = await login();
  expect(signedIn).toMatchObject({ access_token: expect.any(String), user_id: ada.userId });
  expect("mfa_required" in signedIn && signedIn.mfa_required).toBeFalsy();
});
