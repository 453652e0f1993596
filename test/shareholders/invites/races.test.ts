import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { insertCompany, member, person, startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";

// Shareholder invitations under races and email failure (issue 17): one pending invitation per company and email
// (a unique index), one answer per invitation (a conditional move), and an invitation that cannot be emailed is
// not kept.

let t: TestApp;
beforeAll(async () => {
  t = await startFinanceApp();
});
afterAll(() => t.close());

async function boardOf() {
  const owner = await t.register(`race-owner-${Math.random()}@example.org`);
  const company = await insertCompany(t, owner.userId);
  return { company, director: await person(t, company, "director") };
}

describe("invitation races", () => {
  test("concurrent invitations to one email: one pending row, the others AlreadyExists", async () => {
    const { company, director } = await boardOf();
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        director.client.call("shareholderservice.invite_shareholder", {
          company_id: company,
          inviter_id: director.resident,
          invitee_email: "race@example.org",
          proposed_units: 7,
        }),
      ),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    for (const r of replies.filter((x) => "error" in x)) {
      expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "AlreadyExists" } });
    }
    expect(await sql(t, `select status from shareholder_invite where company_id = ?`, [company])).toEqual([
      { status: "pending" },
    ]);
  });

  test("concurrent accepts of one token: the units are issued once", async () => {
    const { company, director } = await boardOf();
    const who = await member(t);
    await sql(t, `update "user" set email_verified = true where sid = ?`, [who.client.userId]);
    await director.client.callOk("shareholderservice.invite_shareholder", {
      company_id: company,
      inviter_id: director.resident,
      invitee_email: who.client.email,
      proposed_units: 9,
    });
    const [mail] = await sql<{ body_text: string }>(
      t,
      `select body_text from email_outbox where to_email = ? and template = 'shareholder_invite'`,
      [who.client.email],
    );
    const token = /Or enter this code: (\S+)/.exec(mail?.body_text ?? "")?.[1] ?? "";
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        who.client.call("shareholderservice.accept_invite", { invite_token: token, resident_id: who.resident }),
      ),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    const roles = await sql(t, `select sid from company_role where company_id = ? and subject_id = ?`, [
      company,
      who.resident,
    ]);
    expect(roles).toHaveLength(1);
    const [c] = await sql(t, `select shareholders from zone_company where company_id = ?`, [company]);
    const mine = (c.shareholders as { resident_id: string; units: number }[]).filter(
      (s) => s.resident_id === who.resident,
    );
    expect(mine.map((s) => s.units)).toEqual([9]);
  });

  test("an email the provider refuses is ProviderUnavailable: no invitation kept", async () => {
    const { company, director } = await boardOf();
    await refusedNoWrite(
      () => sql(t, `select * from shareholder_invite where company_id = ?`, [company]),
      () =>
        director.client.call("shareholderservice.invite_shareholder", {
          company_id: company,
          inviter_id: director.resident,
          invitee_email: "someone@nowhere.invalid",
          proposed_units: 1,
        }),
      -32009,
      { type: "ShareholderError", variant: "ProviderUnavailable" },
    );
  });
});
