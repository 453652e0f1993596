import { beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/auth/tokens.ts";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertCompany, insertProxy, insertResident, insertRole, member, startSigningApp } from "./support.ts";

/** Verification links: create, use (verify_by_token), expiry, single use, revoke, list, delete inactive. */

let t: TestApp;
let ada: Client;
let bob: Client;
let resident: string;

beforeAll(async () => {
  // Links live hours: sessions outlive the clock moves of this file.
  t = await startSigningApp({ accessTokenTtlS: 30 * 24 * 3600 });
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
  resident = await insertResident(t, ada.userId, { first_name: "Ada", last_name: "Lovelace" });
});

type LinkParams = {
  entity_type?: "resident" | "company";
  entity_id?: string;
  expires_in_hours?: number;
  single_use?: boolean;
  label?: string;
};

function create(client: Client, params: LinkParams = {}) {
  return client.call("verificationservice.create_verification_link", {
    entity_type: "resident",
    entity_id: resident,
    expires_in_hours: 24,
    single_use: false,
    ...params,
  });
}

/** A link's use count and stored status. */
async function uses(linkId: string): Promise<{ n: number; status: string }> {
  const [row] = await sql(t, `select use_count::int as n, status from "verification_link" where sid = ?`, [linkId]);
  return row;
}

async function createOk(client: Client, params: LinkParams = {}) {
  const r = await create(client, params);
  if (!("result" in r)) throw new Error(JSON.stringify(r));
  return r.result;
}

describe("verificationservice.create_verification_link", () => {
  test("answers the token and URL once and stores only the token's SHA-256", async () => {
    const link = await createOk(ada, { label: "  for my bank  ", single_use: true, expires_in_hours: 48 });
    expect(link).toEqual({
      link_id: expect.any(String),
      token: expect.stringMatching(/^fzl_[A-Za-z0-9_-]{43}$/),
      verify_url: `${t.config.publicBaseUrl}/verify?token=${link.token}`,
      entity_type: "resident",
      entity_id: resident,
      label: "for my bank",
      single_use: true,
      status: "active",
      expires_at: new Date(t.clock.now().getTime() + 48 * 3600 * 1000).toISOString(),
      created_at: t.clock.now().toISOString(),
    });
    const [row] = await sql(t, `select token_hash from "verification_link" where sid = ?`, [link.link_id]);
    expect(row.token_hash).toBe(sha256Hex(link.token));
    const listed = await ada.callOk("verificationservice.list_verification_links", {});
    expect(JSON.stringify(listed)).not.toContain(link.token);
  });

  test("expiry is 1 to 8760 hours and a label at most 100 characters without control characters", async () => {
    const before = await count(t, "verification_link");
    for (const bad of [
      { expires_in_hours: 0 },
      { expires_in_hours: 8761 },
      { expires_in_hours: -5 },
      { label: "x".repeat(101) },
    ]) {
      expect(errorOf(await create(ada, bad))).toMatchObject({
        code: -32006,
        data: { type: "LinkError", variant: "InvalidInput" },
      });
    }
    // a label is a one-line field: the spec's pattern refuses a line break before the handler (issue 29 item 5)
    expect(errorOf(await create(ada, { label: "line\nbreak" })).code).toBe(-32602);
    expect(await count(t, "verification_link")).toBe(before);
    for (const ok of [{ expires_in_hours: 1 }, { expires_in_hours: 8760 }, { label: "x".repeat(100) }]) {
      await createOk(ada, ok);
    }
    expect(await count(t, "verification_link")).toBe(before + 3);
  });

  test("only the owner: a proxy and an administrator get NotOwner, a stranger NotFound; nothing is written", async () => {
    const { client: ada, resident: target } = await member(t);
    const proxy = await member(t);
    await insertProxy(t, proxy.resident, target);
    const admin = await t.admin();
    const carol = await t.register("carol@example.org");
    const before = await count(t, "verification_link");
    for (const client of [proxy.client, admin]) {
      expect(errorOf(await create(client, { entity_id: target }))).toMatchObject({
        code: -32002,
        data: { type: "LinkError", variant: "NotOwner" },
      });
    }
    expect(errorOf(await create(carol, { entity_id: target }))).toMatchObject({ code: -32003 });
    expect(errorOf(await create(ada, { entity_id: "FZ-2026-RA999999" }))).toMatchObject({ code: -32003 });
    expect(await count(t, "verification_link")).toBe(before);
  });

  test("a company's owner and directors make links; a shareholder may not", async () => {
    const company = await insertCompany(t, ada.userId);
    const director = await member(t);
    await insertRole(t, company, director.resident, "director");
    const shareholder = await member(t);
    await insertRole(t, company, shareholder.resident, "shareholder");
    await createOk(ada, { entity_type: "company", entity_id: company });
    await createOk(director.client, { entity_type: "company", entity_id: company });
    expect(errorOf(await create(shareholder.client, { entity_type: "company", entity_id: company }))).toMatchObject({
      code: -32002,
      data: { variant: "NotOwner" },
    });
  });
});

describe("verificationservice.verify_by_token", () => {
  test("anonymous: the tier-3 view of the resident; a reusable link counts its uses", async () => {
    const link = await createOk(ada);
    for (const uses of [1, 2]) {
      const r = await t.callOk("verificationservice.verify_by_token", { token: link.token });
      expect(r).toMatchObject({
        entity_type: "resident",
        link_status: "active",
        company: null,
        individual: { resident_id: resident, tier: 3, first_name: "Ada", last_name: "Lovelace" },
      });
      const [row] = await sql(t, `select use_count::int as n, last_used_at from "verification_link" where sid = ?`, [
        link.link_id,
      ]);
      expect(row.n).toBe(uses);
    }
  });

  test("a company link opens the company at tier 3", async () => {
    const company = await insertCompany(t, ada.userId, { name: "Lovelace Analytics FZC" });
    const link = await createOk(ada, { entity_type: "company", entity_id: company });
    const r = await t.callOk("verificationservice.verify_by_token", { token: link.token });
    expect(r).toMatchObject({
      entity_type: "company",
      individual: null,
      company: { company_id: company, tier: 3, name: "Lovelace Analytics FZC", directors: [] },
    });
  });

  test("a single-use link works once, then AlreadyUsed", async () => {
    const link = await createOk(ada, { single_use: true });
    expect(await t.callOk("verificationservice.verify_by_token", { token: link.token })).toMatchObject({
      link_status: "used",
    });
    expect(errorOf(await t.call("verificationservice.verify_by_token", { token: link.token }))).toMatchObject({
      code: -32005,
      data: { type: "LinkError", variant: "AlreadyUsed" },
    });
  });

  test("concurrent lookups with one single-use link: exactly one gets through", async () => {
    const link = await createOk(ada, { single_use: true });
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => t.call("verificationservice.verify_by_token", { token: link.token })),
    );
    expect(replies.filter((r) => "result" in r)).toHaveLength(1);
    for (const r of replies.filter((r) => "error" in r)) {
      expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
    }
    const [row] = await sql(t, `select use_count::int as n, status from "verification_link" where sid = ?`, [
      link.link_id,
    ]);
    expect(row).toEqual({ n: 1, status: "used" });
  });

  test("an expired link is Expired from the second it expires", async () => {
    const link = await createOk(ada, { expires_in_hours: 1 });
    t.clock.advance(3599);
    await t.callOk("verificationservice.verify_by_token", { token: link.token });
    t.clock.advance(1);
    expect(errorOf(await t.call("verificationservice.verify_by_token", { token: link.token }))).toMatchObject({
      code: -32005,
      data: { type: "LinkError", variant: "Expired" },
    });
    expect(await uses(link.link_id)).toEqual({ n: 1, status: "active" });
  });

  test("a revoked link is InvalidState; an unknown token NotFound", async () => {
    const link = await createOk(ada);
    await ada.callOk("verificationservice.revoke_verification_link", { link_id: link.link_id });
    expect(errorOf(await t.call("verificationservice.verify_by_token", { token: link.token }))).toMatchObject({
      code: -32005,
      data: { type: "LinkError", variant: "InvalidState" },
    });
    expect(await uses(link.link_id)).toEqual({ n: 0, status: "revoked" });
    expect(errorOf(await t.call("verificationservice.verify_by_token", { token: "fzl_unknown" }))).toMatchObject({
      code: -32003,
      data: { type: "LinkError", variant: "NotFound" },
    });
  });

  test("a link whose resident is gone is NotFound", async () => {
    const { client: ada, resident: gone } = await member(t);
    const link = await createOk(ada, { entity_id: gone });
    await sql(t, `delete from "digital_resident" where resident_id = ?`, [gone]);
    expect(errorOf(await t.call("verificationservice.verify_by_token", { token: link.token }))).toMatchObject({
      code: -32003,
      data: { type: "LinkError", variant: "NotFound" },
    });
  });
});

describe("revoke, list and delete", () => {
  test("revoke is immediate and idempotent; a link no longer active answers its status without a revocation", async () => {
    const link = await createOk(ada);
    const first = await ada.callOk("verificationservice.revoke_verification_link", { link_id: link.link_id });
    expect(first).toEqual({ link_id: link.link_id, status: "revoked", revoked_at: t.clock.now().toISOString() });
    t.clock.advance(5);
    expect(await ada.callOk("verificationservice.revoke_verification_link", { link_id: link.link_id })).toEqual(first);
    const used = await createOk(ada, { single_use: true });
    await t.callOk("verificationservice.verify_by_token", { token: used.token });
    expect(await ada.callOk("verificationservice.revoke_verification_link", { link_id: used.link_id })).toEqual({
      link_id: used.link_id,
      status: "used",
      revoked_at: null,
    });
  });

  test("another user's link is NotFound and stays active", async () => {
    const link = await createOk(ada);
    expect(
      errorOf(await bob.call("verificationservice.revoke_verification_link", { link_id: link.link_id })),
    ).toMatchObject({ code: -32003, data: { type: "LinkError", variant: "NotFound" } });
    await t.callOk("verificationservice.verify_by_token", { token: link.token });
  });

  test("the list shows the caller's links newest first with their status now", async () => {
    const { client: carol, resident: own } = await member(t);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push((await createOk(carol, { entity_id: own, expires_in_hours: i + 1, label: `link ${i}` })).link_id);
      t.clock.advance(1);
    }
    t.clock.advance(3600);
    const list = await carol.callOk("verificationservice.list_verification_links", {});
    expect(list.items.map((l) => [l.link_id, l.status, l.label])).toEqual([
      [made[2], "active", "link 2"],
      [made[1], "active", "link 1"],
      [made[0], "expired", "link 0"],
    ]);
    expect(
      errorOf(await carol.call("verificationservice.list_verification_links", { user_id: ada.userId })),
    ).toMatchObject({ code: -32002 });
  });

  test("a user holds at most 100 links, exactly, also when creating concurrently; deleting inactive ones makes room", async () => {
    const { client: erin, resident: own } = await member(t);
    // 97 links already held (one expired), inserted at once.
    await sql(
      t,
      `insert into "verification_link" (sid, user_id, entity_type, entity_id, label, token_hash, status, single_use,
         expires_at, use_count, created_at, updated_at)
       select gen_random_uuid()::text, ?, 'resident', ?, null, md5(i::text || ?), 'active', false,
         case when i = 1 then ?::timestamptz else ?::timestamptz end, 0, ?::timestamptz, ?::timestamptz
       from generate_series(1, 97) as i`,
      [
        erin.userId,
        own,
        erin.userId,
        "2026-01-01T00:00:00Z",
        "2027-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z",
      ],
    );
    const replies = await Promise.all(Array.from({ length: 6 }, () => create(erin, { entity_id: own })));
    expect(replies.filter((r) => "result" in r)).toHaveLength(3);
    for (const r of replies.filter((r) => "error" in r)) {
      expect(errorOf(r)).toMatchObject({
        code: -32008,
        data: { type: "LinkError", variant: "QuotaExceeded", limit: 100 },
      });
    }
    expect(await count(t, "verification_link", "user_id = ?", [erin.userId])).toBe(100);
    expect((await erin.callOk("verificationservice.list_verification_links", {})).items).toHaveLength(100);
    expect(await erin.callOk("verificationservice.delete_inactive_links", {})).toMatchObject({ deleted_count: 1 });
    await createOk(erin, { entity_id: own });
    expect(errorOf(await create(erin, { entity_id: own }))).toMatchObject({ data: { variant: "QuotaExceeded" } });
  });

  test("delete_inactive_links removes expired, used and revoked links only, once", async () => {
    const { client: dave, resident: own } = await member(t);
    const active = await createOk(dave, { entity_id: own, expires_in_hours: 100 });
    const expiring = await createOk(dave, { entity_id: own, expires_in_hours: 1 });
    const used = await createOk(dave, { entity_id: own, single_use: true });
    const revoked = await createOk(dave, { entity_id: own });
    await t.callOk("verificationservice.verify_by_token", { token: used.token });
    await dave.callOk("verificationservice.revoke_verification_link", { link_id: revoked.link_id });
    const adaLinks = await count(t, "verification_link", "user_id = ?", [ada.userId]);
    t.clock.advance(3600);
    const r = await dave.callOk("verificationservice.delete_inactive_links", {});
    expect(r.deleted_count).toBe(3);
    expect(r.link_ids.sort()).toEqual([expiring.link_id, used.link_id, revoked.link_id].sort());
    expect(await dave.callOk("verificationservice.delete_inactive_links", {})).toEqual({
      deleted_count: 0,
      link_ids: [],
    });
    const left = await dave.callOk("verificationservice.list_verification_links", {});
    expect(left.items.map((l) => l.link_id)).toEqual([active.link_id]);
    expect(await count(t, "verification_link", "user_id = ?", [ada.userId])).toBe(adaLinks);
    expect(
      errorOf(await dave.call("verificationservice.delete_inactive_links", { user_id: ada.userId })),
    ).toMatchObject({
      code: -32002,
    });
  });
});
