import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { journeyCast, signInAgain } from "./support.ts";

// Seed 000, verification links: a resident shares a link that lets anyone check it (tier 3) without signing in. A
// single-use link is spent by its first lookup; a revoked one refuses at once; a link past its expiry refuses from
// the expiry instant; tidying deletes the inactive links and keeps the active one. Public API only (see support.ts).

expectReached({
  VerificationLinkStatus: ["active", "used", "revoked", "expired"],
});

const cast = journeyCast({ ada: { first_name: "Ada", last_name: "Lovelace" } });

test("verification links: shared, spent, revoked, expired, tidied", async () => {
  const { zone, ada } = cast;
  const { t } = zone;
  const link = (single_use: boolean, expires_in_hours: number, label: string) =>
    ada.client.callOk("verificationservice.create_verification_link", {
      entity_type: "resident",
      entity_id: ada.residentId,
      expires_in_hours,
      single_use,
      label,
    });
  const lookup = (token: string) => t.call("verificationservice.verify_by_token", { token });
  const variant = (r: Awaited<ReturnType<typeof lookup>>) => ("error" in r ? r.error.data?.variant : "ok");

  const once = await link(true, 24, "for the bank");
  expect(once).toMatchObject({ status: "active", single_use: true, entity_id: ada.residentId });
  const shared = await link(false, 48, "on my website");
  const revoked = await link(false, 24, "sent by mistake");

  // Anyone, not signed in, checks the resident by a link.
  const first = await lookup(once.token);
  expect(variant(first)).toBe("ok");
  expect(await lookup(once.token).then(variant)).toBe("AlreadyUsed");
  expect(await lookup(shared.token).then(variant)).toBe("ok");
  expect(await lookup(shared.token).then(variant)).toBe("ok");

  const r = await ada.client.callOk("verificationservice.revoke_verification_link", { link_id: revoked.link_id });
  expect(r.status).toBe("revoked");
  expect(await lookup(revoked.token).then(variant)).toBe("InvalidState");
  // Revoking a spent link changes nothing and says what it is.
  expect(
    (await ada.client.callOk("verificationservice.revoke_verification_link", { link_id: once.link_id })).status,
  ).toBe("used");

  const statuses = async () => {
    const list = await ada.client.callOk("verificationservice.list_verification_links", {});
    return Object.fromEntries(list.items.map((l) => [l.link_id, l.status]));
  };
  expect(await statuses()).toEqual({
    [once.link_id]: "used",
    [shared.link_id]: "active",
    [revoked.link_id]: "revoked",
  });
  expect(JSON.stringify(await ada.client.callOk("verificationservice.list_verification_links", {}))).not.toContain(
    shared.token,
  );

  // A second before its expiry the shared link works; at the instant it refuses as expired.
  const expiry = new Date(shared.expires_at).getTime();
  t.clock.set(new Date(expiry - 1000).toISOString());
  expect(await lookup(shared.token).then(variant)).toBe("ok");
  t.clock.set(new Date(expiry).toISOString());
  expect(await lookup(shared.token).then(variant)).toBe("Expired");
  await signInAgain(zone, ada);
  expect((await statuses())[shared.link_id]).toBe("expired");

  // Tidying: the three inactive links go, a fresh active one stays.
  const fresh = await link(false, 1, "today");
  const tidied = await ada.client.callOk("verificationservice.delete_inactive_links", {});
  expect(tidied.deleted_count).toBe(3);
  expect(await statuses()).toEqual({ [fresh.link_id]: "active" });
  expect((await ada.client.callOk("verificationservice.delete_inactive_links", {})).deleted_count).toBe(0);
});
