import type { Client, TestApp } from "./app.ts";
import { insertCompany, person, startFinanceApp } from "./entities.ts";

/**
 * The callers of the `userauditlogservice.list_for_target` tests on company records: the company's owner, a current
 * director, founder and shareholder, a past director (window closed in 2025), a stranger and an administrator.
 */
export interface TargetCast {
  t: TestApp;
  admin: Client;
  owner: Client;
  companyId: string;
  director: Client;
  founder: Client;
  shareholder: Client;
  pastDirector: Client;
  stranger: Client;
}

/** A finance app with one company and its cast; `prefix` keeps the e-mail addresses of two suites apart. */
export async function targetCast(prefix: string): Promise<TargetCast> {
  const t = await startFinanceApp();
  const admin = await t.admin();
  const owner = await t.register(`${prefix}-owner@example.org`);
  const companyId = await insertCompany(t, owner.userId);
  const director = (await person(t, companyId, "director")).client;
  const founder = (await person(t, companyId, "founder")).client;
  const shareholder = (await person(t, companyId, "shareholder")).client;
  const pastDirector = (
    await person(t, companyId, "director", {
      valid_from: new Date("2025-01-01T00:00:00.000Z"),
      valid_to: new Date("2025-06-01T00:00:00.000Z"),
    })
  ).client;
  const stranger = await t.register(`${prefix}-stranger@example.org`);
  return { t, admin, owner, companyId, director, founder, shareholder, pastDirector, stranger };
}

/** The (action, target_type) pairs the caller may list for the target, or the error code of a refusal. */
export async function listFor(client: Client, ref: string) {
  const r = await client.call("userauditlogservice.list_for_target", { target_ref: ref, limit: 0 });
  if ("error" in r) return r.error.code;
  return r.result.items.map((i) => [i.action, i.target_type]);
}
