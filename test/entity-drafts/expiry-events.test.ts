import { beforeEach, describe, expect, test } from "vitest";
import { sweepExpiredDrafts } from "../../src/services/entity-draft-service/completion.ts";
import type { TestApp } from "../support/app.ts";
import { insertCompany, insertResident, member, person, startFinanceApp } from "../support/entities.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";
import { coopDraft, draftTables, invitationOf, type Person, people } from "./support.ts";

let t: TestApp;
beforeEach(async () => {
  t = await startFinanceApp();
});

describe("expire_drafts and the sweep", () => {
  let founder: Person;
  let ann: Person;
  beforeEach(async () => {
    founder = await member(t);
    [ann] = (await people(t, 1)) as [Person];
  });

  /** A finalized draft whose deadline is two minutes ahead. */
  async function dueDraft() {
    const d = await coopDraft(founder, [ann]);
    const deadline = new Date(t.clock.now().getTime() + 120_000).toISOString();
    await founder.client.callOk("entitydraftservice.update_draft", { draft_id: d.sid, signature_deadline: deadline });
    await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: d.sid });
    return { ...d, signature_deadline: deadline };
  }

  test("a millisecond before the deadline nothing moves; at the deadline instant the draft and its invitations expire", async () => {
    const d = await dueDraft();
    const admin = await t.admin();
    t.clock.set(new Date(Date.parse(d.signature_deadline) - 1).toISOString());
    expect(await admin.callOk("entitydraftservice.expire_drafts")).toMatchObject({ expired_drafts: 0 });
    t.clock.set(d.signature_deadline);
    const r = await admin.callOk("entitydraftservice.expire_drafts");
    expect(r).toEqual({
      expired_drafts: 1,
      expired_invitations: 1,
      draft_ids: [d.sid],
      swept_at: d.signature_deadline,
    });
    expect((await sql(t, "select status from entity_draft"))[0].status).toBe("expired");
    expect((await sql(t, "select status from entity_invitation"))[0].status).toBe("expired");
    expect(await admin.callOk("entitydraftservice.expire_drafts")).toMatchObject({
      expired_drafts: 0,
      expired_invitations: 0,
    });
  });

  test("the scheduled sweep moves the same drafts and leaves all_signed ones alone", async () => {
    const due = await dueDraft();
    const signed = await coopDraft(founder, [ann]);
    await founder.client.callOk("entitydraftservice.update_draft", {
      draft_id: signed.sid,
      signature_deadline: due.signature_deadline,
    });
    await founder.client.callOk("entitydraftservice.finalize_draft", { draft_id: signed.sid });
    const inv = await invitationOf(ann, signed.sid);
    await ann.client.callOk("entitydraftservice.accept_invitation", { invitation_id: inv });
    await ann.client.callOk("entitydraftservice.check_completion", { draft_id: signed.sid });
    const orm = t.app.runtime.orm;
    const moved = await orm.em.fork().transactional((em) => sweepExpiredDrafts(em, new Date(due.signature_deadline)));
    expect(moved.draftIds).toEqual([due.sid]);
    const rows = await sql(t, "select sid, status from entity_draft order by status");
    expect(rows.map((r) => r.status)).toEqual(["all_signed", "expired"]);
  });

  test("is for administrators: a user is refused and nothing changes", async () => {
    const d = await dueDraft();
    t.clock.set(d.signature_deadline);
    await refusedNoWrite(
      () => draftTables(t),
      () => founder.client.call("entitydraftservice.expire_drafts"),
      -32002,
      null,
    );
  });
});

describe("create_event and list_events", () => {
  let coop: string;
  let director: Person;
  let memberOf: Person;
  beforeEach(async () => {
    const owner = await t.register("coop-owner@example.org");
    coop = await insertCompany(t, owner.userId, { company_type: "coop_standard_fzc" });
    director = await person(t, coop, "director");
    memberOf = await person(t, coop, "founding_member");
  });

  const event = (createdBy: string, extra: Record<string, unknown> = {}) => ({
    company_id: coop,
    title: "General assembly",
    event_type: "meeting" as const,
    start_at: "2026-12-01T10:00:00.000Z",
    end_at: "2026-12-01T12:00:00.000Z",
    created_by: createdBy,
    ...extra,
  });

  test("a director creates events; any member lists them, latest start first", async () => {
    const first = await director.client.callOk("entitydraftservice.create_event", event(director.resident));
    expect(first).toMatchObject({
      company_id: coop,
      title: "General assembly",
      created_by: director.resident,
      description: null,
    });
    const later = await director.client.callOk(
      "entitydraftservice.create_event",
      event(director.resident, {
        title: "Vote closes",
        event_type: "vote_deadline",
        start_at: "2026-12-05T10:00:00.000Z",
        end_at: undefined,
      }),
    );
    const list = await memberOf.client.callOk("entitydraftservice.list_events", { company_id: coop });
    expect(list.items.map((e) => e.sid)).toEqual([later.sid, first.sid]);
  });

  test("a member who is not a director is Forbidden; a stranger listing is NotFound; nothing is written", async () => {
    await refusedNoWrite(
      () => draftTables(t),
      () => memberOf.client.call("entitydraftservice.create_event", event(memberOf.resident)),
      -32002,
      { type: "DraftError", variant: "Forbidden" },
    );
    const stranger = await member(t);
    await refusedNoWrite(
      () => draftTables(t),
      () => stranger.client.call("entitydraftservice.list_events", { company_id: coop }),
      -32003,
      { type: "DraftError", variant: "NotFound" },
    );
  });

  test("created_by must be the caller's resident and hold the director role", async () => {
    await refusedNoWrite(
      () => draftTables(t),
      () => director.client.call("entitydraftservice.create_event", event(memberOf.resident)),
      -32002,
      null,
    );
    const owner = await t.register("second-owner@example.org");
    const other = await insertCompany(t, owner.userId, { company_type: "coop_platinum_fzc" });
    const ownerResident = await insertResident(t, owner.userId);
    await refusedNoWrite(
      () => draftTables(t),
      () => owner.call("entitydraftservice.create_event", { ...event(ownerResident), company_id: other }),
      -32002,
      { type: "DraftError", variant: "Forbidden" },
    );
  });

  test("a company that is not a cooperative, or a voided one, is InvalidState; end before start and an empty title are InvalidInput", async () => {
    const owner = await t.register("plain-owner@example.org");
    const plain = await insertCompany(t, owner.userId);
    const plainDirector = await person(t, plain, "director");
    await refusedNoWrite(
      () => draftTables(t),
      () =>
        plainDirector.client.call("entitydraftservice.create_event", {
          ...event(plainDirector.resident),
          company_id: plain,
        }),
      -32005,
      { type: "DraftError", variant: "InvalidState" },
    );
    await sql(
      t,
      "update zone_company set status = 'voided', void_reason = 'test', voided_at = now() where company_id = ?",
      [coop],
    );
    await refusedNoWrite(
      () => draftTables(t),
      () => director.client.call("entitydraftservice.create_event", event(director.resident)),
      -32005,
      { type: "DraftError", variant: "InvalidState" },
    );
    await sql(
      t,
      "update zone_company set status = 'active', void_reason = null, voided_at = null where company_id = ?",
      [coop],
    );
    for (const bad of [{ end_at: "2026-12-01T09:59:59.000Z" }, { title: "   " }]) {
      await refusedNoWrite(
        () => draftTables(t),
        () => director.client.call("entitydraftservice.create_event", event(director.resident, bad)),
        -32006,
        { type: "DraftError", variant: "InvalidInput" },
      );
    }
  });
});
