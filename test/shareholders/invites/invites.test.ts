import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../../src/auth/tokens.ts";
import type { Client, TestApp } from "../../support/app.ts";
import { insertCompany, insertProxy, insertResident, member, person, startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";

// shareholderservice.invite_shareholder / accept_invite / reject_invite / list_invites (issue 17): a director invites
// an email; the one-time token is emailed through the outbox and stored hashed; it expires after 14 days (past
// expires_at it is expired for every reader); the invitee, signed in with that verified email, accepts with a
// resident it owns (units issued: shareholder data + a shareholder CompanyRole row) or rejects.

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

const sh = (variant: string) => ({ type: "ShareholderError", variant });
const DAY = 86_400;

/** Moves an invitation's expiry to `at` (sessions expire if the clock runs for days, so the invite's clock moves). */
const expireAt = (sid: string, at: Date) =>
  sql(t, `update shareholder_invite set expires_at = ? where sid = ?`, [at, sid]);

async function boardOf(extra: Record<string, unknown> = {}) {
  const owner = await t.register(`inv-owner-${Math.random()}@example.org`);
  const company = await insertCompany(t, owner.userId, extra);
  return { company, director: await person(t, company, "director") };
}

/** A signed-in invitee with a personal resident; its email verified unless `verified` is false. */
async function invitee(verified = true) {
  const m = await member(t);
  if (verified) await sql(t, `update "user" set email_verified = true where sid = ?`, [m.client.userId]);
  return m;
}

/** Invites `email` and returns the invite and the plaintext token read from the outbox email. */
async function invite(
  director: { client: Client; resident: string },
  company: string,
  email: string,
  units = 100,
  message?: string,
) {
  const r = await director.client.callOk("shareholderservice.invite_shareholder", {
    company_id: company,
    inviter_id: director.resident,
    invitee_email: email,
    proposed_units: units,
    ...(message !== undefined ? { message } : {}),
  });
  const [mail] = await sql<{ body_text: string }>(
    t,
    `select body_text from email_outbox where lower(to_email) = lower(trim(?)) and template = 'shareholder_invite' order by sid desc limit 1`,
    [email],
  );
  const token = /Or enter this code: (\S+)/.exec(mail?.body_text ?? "")?.[1] ?? "";
  return { invite: r, token };
}

const inviteWrites = async (company: string) => ({
  invites: await sql(t, `select * from shareholder_invite where company_id = ? order by sid`, [company]),
  roles: await sql(t, `select * from company_role where company_id = ? order by sid`, [company]),
  company: await sql(t, `select shareholders, updated_at from zone_company where company_id = ?`, [company]),
});

describe("shareholderservice.invite_shareholder", () => {
  test("a pending invite expiring in 14 days, the token emailed and only its hash stored", async () => {
    const { company, director } = await boardOf();
    const { invite: r, token } = await invite(director, company, "  New.Holder@Example.org ", 250, "Welcome aboard");
    const now = t.clock.now();
    expect(r).toEqual({
      sid: r.sid,
      company_id: company,
      inviter_id: director.resident,
      invitee_email: "new.holder@example.org",
      proposed_units: 250,
      message: "Welcome aboard",
      status: "pending",
      resident_id: null,
      expires_at: new Date(now.getTime() + 14 * DAY * 1000).toISOString(),
      responded_at: null,
      created_at: now.toISOString(),
    });
    expect(token).toMatch(/^fzi_/);
    const [row] = await sql(t, `select token_hash from shareholder_invite where sid = ?`, [r.sid]);
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(r)).not.toContain(token);
  });

  test("a second live invite to the same email is AlreadyExists; nothing written", async () => {
    const { company, director } = await boardOf();
    await invite(director, company, "twice@example.org");
    await refusedNoWrite(
      () => inviteWrites(company),
      () =>
        director.client.call("shareholderservice.invite_shareholder", {
          company_id: company,
          inviter_id: director.resident,
          invitee_email: "TWICE@example.org",
          proposed_units: 5,
        }),
      -32005,
      sh("AlreadyExists"),
    );
  });

  test("after the first expired, a new invite to the same email is issued and the old one marked expired", async () => {
    const { company, director } = await boardOf();
    const first = await invite(director, company, "again@example.org");
    await expireAt(first.invite.sid, t.clock.now());
    const second = await invite(director, company, "again@example.org");
    const rows = await sql(t, `select sid, status from shareholder_invite where company_id = ? order by sid`, [
      company,
    ]);
    expect(rows).toEqual([
      { sid: first.invite.sid, status: "expired" },
      { sid: second.invite.sid, status: "pending" },
    ]);
  });

  test("units <= 0, a malformed email or a long message is InvalidInput; nothing written", async () => {
    const { company, director } = await boardOf();
    const bad = [
      { invitee_email: "a@example.org", proposed_units: 0 },
      { invitee_email: "a@example.org", proposed_units: -3 },
      { invitee_email: "not-an-email", proposed_units: 1 },
      { invitee_email: "a@example.org", proposed_units: 1, message: "x".repeat(2001) },
    ];
    for (const p of bad) {
      await refusedNoWrite(
        () => inviteWrites(company),
        () =>
          director.client.call("shareholderservice.invite_shareholder", {
            company_id: company,
            inviter_id: director.resident,
            ...p,
          }),
        -32006,
        sh("InvalidInput"),
      );
    }
  });

  test("a shareholder is Forbidden; a suspended company is InvalidState; nothing written", async () => {
    const { company } = await boardOf();
    const holder = await person(t, company, "shareholder");
    await refusedNoWrite(
      () => inviteWrites(company),
      () =>
        holder.client.call("shareholderservice.invite_shareholder", {
          company_id: company,
          inviter_id: holder.resident,
          invitee_email: "x@example.org",
          proposed_units: 1,
        }),
      -32002,
      null,
    );
    const suspended = await boardOf({ status: "suspended" });
    await refusedNoWrite(
      () => inviteWrites(suspended.company),
      () =>
        suspended.director.client.call("shareholderservice.invite_shareholder", {
          company_id: suspended.company,
          inviter_id: suspended.director.resident,
          invitee_email: "x@example.org",
          proposed_units: 1,
        }),
      -32005,
      sh("InvalidState"),
    );
  });
});

describe("shareholderservice.accept_invite", () => {
  test("issues the units to the resident: a shareholder role row and a cap-table row", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const { invite: inv, token } = await invite(director, company, who.client.email, 40);
    t.clock.advance(60);
    const r = await who.client.callOk("shareholderservice.accept_invite", {
      invite_token: token,
      resident_id: who.resident,
    });
    const now = t.clock.now().toISOString();
    expect(r).toEqual({
      invite_id: inv.sid,
      company_id: company,
      resident_id: who.resident,
      units: 40,
      status: "accepted",
      role_id: r.role_id,
      accepted_at: now,
    });
    const roles = await sql(t, `select sid, role, valid_to from company_role where company_id = ? and subject_id = ?`, [
      company,
      who.resident,
    ]);
    expect(roles).toEqual([{ sid: r.role_id, role: "shareholder", valid_to: null }]);
    const [c] = await sql(t, `select shareholders from zone_company where company_id = ?`, [company]);
    expect(c.shareholders).toContainEqual(
      expect.objectContaining({ resident_id: who.resident, units: 40, role: "shareholder" }),
    );
    const [row] = await sql(t, `select status, resident_id from shareholder_invite where sid = ?`, [inv.sid]);
    expect(row).toEqual({ status: "accepted", resident_id: who.resident });
  });

  test("a resident already holding a shareholder role keeps its row; the units are added to its cap-table row", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const first = await invite(director, company, who.client.email, 10);
    const a = await who.client.callOk("shareholderservice.accept_invite", {
      invite_token: first.token,
      resident_id: who.resident,
    });
    const second = await invite(director, company, who.client.email, 5);
    const b = await who.client.callOk("shareholderservice.accept_invite", {
      invite_token: second.token,
      resident_id: who.resident,
    });
    expect(b.role_id).toBe(a.role_id);
    const [c] = await sql(t, `select shareholders from zone_company where company_id = ?`, [company]);
    const mine = (c.shareholders as { resident_id: string; units: number }[]).filter(
      (s) => s.resident_id === who.resident,
    );
    expect(mine.map((s) => s.units)).toEqual([15]);
  });

  test("an unknown token is NotFound; a used one AlreadyUsed; nothing written", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const { token } = await invite(director, company, who.client.email);
    const accept = (tok: string) =>
      who.client.call("shareholderservice.accept_invite", { invite_token: tok, resident_id: who.resident });
    await refusedNoWrite(
      () => inviteWrites(company),
      () => accept("fzi_nope"),
      -32003,
      sh("NotFound"),
    );
    await who.client.callOk("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident });
    await refusedNoWrite(
      () => inviteWrites(company),
      () => accept(token),
      -32005,
      sh("AlreadyUsed"),
    );
  });

  test("an expired token is Expired, at exactly expires_at too; nothing written", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const { invite: inv, token } = await invite(director, company, who.client.email);
    await expireAt(inv.sid, t.clock.now());
    await refusedNoWrite(
      () => inviteWrites(company),
      () => who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident }),
      -32005,
      sh("Expired"),
    );
  });

  test("another email, or the right email unverified, is Forbidden; nothing written", async () => {
    const { company, director } = await boardOf();
    const intended = await invitee(false);
    const other = await invitee();
    const { token } = await invite(director, company, intended.client.email);
    for (const c of [other, intended]) {
      await refusedNoWrite(
        () => inviteWrites(company),
        () => c.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: c.resident }),
        -32002,
        sh("Forbidden"),
      );
    }
  });

  test("a resident the caller does not own (another's, or one it only acts for) is refused; nothing written", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const foreign = await insertResident(t, null);
    const actedFor = await insertResident(t, null);
    await insertProxy(t, who.resident, actedFor);
    const { token } = await invite(director, company, who.client.email);
    for (const resident of [foreign, actedFor]) {
      await refusedNoWrite(
        () => inviteWrites(company),
        () => who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: resident }),
        -32002,
        null,
      );
    }
  });

  test("a company suspended since the invitation is InvalidState; nothing written", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const { token } = await invite(director, company, who.client.email);
    await sql(t, `update zone_company set status = 'suspended' where company_id = ?`, [company]);
    await refusedNoWrite(
      () => inviteWrites(company),
      () => who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident }),
      -32005,
      sh("InvalidState"),
    );
  });
});

describe("shareholderservice.reject_invite", () => {
  test("the invitee declines: status rejected; then accepting is AlreadyUsed", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const { invite: inv, token } = await invite(director, company, who.client.email);
    const r = await who.client.callOk("shareholderservice.reject_invite", { invite_token: token });
    expect(r).toEqual({
      invite_id: inv.sid,
      company_id: company,
      status: "rejected",
      responded_at: t.clock.now().toISOString(),
    });
    const e = errorOf(
      await who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident }),
    );
    expect(e).toMatchObject({ code: -32005, data: sh("AlreadyUsed") });
  });

  test("wrong email Forbidden, unknown token NotFound, expired Expired; nothing written", async () => {
    const { company, director } = await boardOf();
    const who = await invitee();
    const other = await invitee();
    const { invite: inv, token } = await invite(director, company, who.client.email);
    const reject = (c: Client, tok: string) => c.call("shareholderservice.reject_invite", { invite_token: tok });
    await refusedNoWrite(
      () => inviteWrites(company),
      () => reject(other.client, token),
      -32002,
      sh("Forbidden"),
    );
    await refusedNoWrite(
      () => inviteWrites(company),
      () => reject(who.client, "fzi_x"),
      -32003,
      sh("NotFound"),
    );
    await expireAt(inv.sid, new Date(t.clock.now().getTime() - 1000));
    await refusedNoWrite(
      () => inviteWrites(company),
      () => reject(who.client, token),
      -32005,
      sh("Expired"),
    );
  });
});

describe("shareholderservice.list_invites", () => {
  test("pending, unexpired invitations newest first; answered and expired ones left out; directors only", async () => {
    const { company, director } = await boardOf();
    const old = await invite(director, company, "old@example.org");
    await expireAt(old.invite.sid, t.clock.now());
    t.clock.advance(60);
    const a = await invite(director, company, "a@example.org");
    t.clock.advance(60);
    const b = await invite(director, company, "b@example.org");
    const who = await invitee();
    const answered = await invite(director, company, who.client.email);
    await who.client.callOk("shareholderservice.reject_invite", { invite_token: answered.token });
    const r = await director.client.callOk("shareholderservice.list_invites", { company_id: company });
    expect(r.items.map((i) => i.sid)).toEqual([b.invite.sid, a.invite.sid]);
    expect(r.items.map((i) => i.sid)).not.toContain(old.invite.sid);
    const holder = await person(t, company, "shareholder");
    expect(errorOf(await holder.client.call("shareholderservice.list_invites", { company_id: company })).code).toBe(
      -32002,
    );
  });
});
