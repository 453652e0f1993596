import { beforeAll, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { count } from "../../support/helpers.ts";
import { auditRows, content, coop, decided, disciplineApp, notice } from "./support.ts";

let t: TestApp;

beforeAll(async () => {
  t = await disciplineApp();
});

test("of two concurrent responses to one notice exactly one is written (one next step per row)", async () => {
  const c = await coop(t);
  const n = await notice(t, c);
  const replies = await Promise.all(
    [1, 2].map((i) =>
      c.member.client.call("governanceservice.submit_response", {
        parent_action_id: n.sid,
        content: content(`answer ${i}`),
        created_by: c.member.resident,
      }),
    ),
  );
  expect(replies.filter((r) => "result" in r)).toHaveLength(1);
  const loser = replies.find((r) => "error" in r);
  expect(loser && "error" in loser && loser.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  expect(await count(t, "governance_action", "parent_action_sid = ?", [n.sid])).toBe(1);
});

test("of two concurrent enforcements one closes the roles and writes the audit row; the other is a no-op", async () => {
  const c = await coop(t);
  const d = await decided(t, c, "remove");
  t.clock.set(d.due_by);
  const before = (await auditRows(t, "enforce_decision")).length;
  const replies = await Promise.all(
    [1, 2].map(() =>
      c.director.client.callOk("governanceservice.enforce_decision", {
        decision_id: d.sid,
        enforced_by: c.director.resident,
      }),
    ),
  );
  expect(replies.map((r) => r.already_enforced).sort()).toEqual([false, true]);
  expect(replies.flatMap((r) => r.closed_role_ids)).toHaveLength(1);
  expect((await auditRows(t, "enforce_decision")).length - before).toBe(1);
});
