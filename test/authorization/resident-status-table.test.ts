import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ResidentStatus } from "../../generated/types.ts";
import { RESIDENT_STATUS_ALLOWS, type ResidentAction } from "../../src/domain/resident-status.ts";
import type { Client, RpcReply, TestApp } from "../support/app.ts";
import { insertCompany, insertRole, member, startFinanceApp } from "../support/entities.ts";
import { callParams, type Entry, issuedBy, kindsWithoutFixture, RECORD_FIXTURES, registryEntries } from "./support.ts";

/**
 * The resident status gate, method by method, listed from the registry (a new method is covered without editing
 * this file): every method with x-acts-as, and every write with an x-target that needs a company role or may name
 * a resident issuer. A caller whose only resident is pending, expired or suspended, holding every role the methods
 * need in one company, calls each with params that pass the earlier steps (its own resident in the caller binding
 * and the x-acts-as param, a target of the company). Where the status does not allow the method's action
 * (src/domain/resident-status.ts RESIDENT_STATUS_ALLOWS; `actsAs.action`, and `act` for a role through the target)
 * the answer is -32005 InvalidState with `data.status` the status; where it allows it, the gate lets the call on.
 */

const STATUSES = ["pending", "expired", "suspended"] as const satisfies readonly ResidentStatus[];
type Status = (typeof STATUSES)[number];

/** The roles the caller's resident holds in the company: between them, every x-target role passes. */
const ROLES = ["founder", "shareholder"];

/**
 * Methods listed but not called, with the reason; the test fails when the list of methods without a fixture grows
 * beyond these (a new record kind gets a fixture in support.ts RECORD_FIXTURES, or is named here).
 */
const SKIPPED: Record<string, string> = {};

const gatedByTarget = (e: Entry) => !e.mcp.readOnly && !!e.target && (!!e.target.role || !!e.target.foreignResident);
const METHODS = registryEntries().filter((e) => e.actsAs || gatedByTarget(e));

/** The actions the gate checks for a method: `act` through the target, the x-acts-as action for the resident. */
function actions(e: Entry): ResidentAction[] {
  return [...(gatedByTarget(e) ? (["act"] as const) : []), ...(e.actsAs ? [e.actsAs.action] : [])];
}

const allows = (status: Status, e: Entry) => actions(e).every((a) => RESIDENT_STATUS_ALLOWS[status].includes(a));

const missing = (e: Entry) => !!e.target && !RECORD_FIXTURES[e.target.record];
const CALLED = METHODS.filter((e) => !missing(e) && !SKIPPED[e.name]);

/** The gate's refusal: x-acts-as (statusRefusal's message) or the target's role held by residents who may not act. */
function gateRefused(r: RpcReply, status: Status): boolean {
  const e = r.error;
  if (e?.code !== -32005 || e.data?.variant !== "InvalidState" || e.data?.status !== status) return false;
  return / is not allowed\)$/.test(e.message) || / role is held by a resident who may not act: /.test(e.message);
}

let t: TestApp;
let company: string;
const callers = new Map<Status, { client: Client; resident: string }>();
/** A target of each record kind in the company, by kind. */
const targets = new Map<string, string>();

beforeAll(async () => {
  t = await startFinanceApp();
  const admin = await t.admin();
  const owner = await member(t);
  company = await insertCompany(t, owner.client.userId);
  const author = await member(t);
  await insertRole(t, company, author.resident, "director");
  for (const [kind, fixture] of Object.entries(RECORD_FIXTURES)) {
    targets.set(kind, await fixture(t, company, author.resident));
  }

  const end = new Date(t.clock.now().getTime() + 60_000).toISOString();
  callers.set("pending", await member(t, { status: "pending" }));
  callers.set("expired", await member(t, { subscription_end_date: end }));
  callers.set("suspended", await member(t));
  await admin.callOk("residentservice.suspend", {
    resident_id: callers.get("suspended")!.resident,
    reason: "status table",
  });
  for (const c of callers.values()) for (const role of ROLES) await insertRole(t, company, c.resident, role);
  t.clock.advance(120);
});
afterAll(() => t.close());

test("the table has the methods that act and the company writes", () => {
  const names = METHODS.map((e) => e.name);
  expect(names).toEqual(
    expect.arrayContaining([
      "governanceservice.cast_vote",
      "companyservice.create",
      "entitydraftservice.create_draft",
      "invoiceservice.create",
      "messageservice.create_company_message",
      "shareholderservice.initiate_transfer",
      "paymentservice.initiate_renewal",
    ]),
  );
});

test("every method's target kind has a fixture, or is one of the skipped methods named here", () => {
  const unnamed = METHODS.filter((e) => missing(e) && !SKIPPED[e.name]).map((e) => `${e.name} (${e.target!.record})`);
  expect(unnamed, `record kinds without a fixture: ${kindsWithoutFixture(METHODS).join(", ")}`).toEqual([]);
});

test("the callers' residents are in the statuses the table is about", async () => {
  for (const status of STATUSES) {
    const c = callers.get(status)!;
    const r = await c.client.callOk("residentservice.get", { resident_id: c.resident });
    expect(r).toMatchObject({ status });
  }
});

describe.each(STATUSES)("a %s resident", (status) => {
  test.each(CALLED.map((e) => [e.name, e] as const))("%s", async (_name, entry) => {
    const c = callers.get(status)!;
    const target = entry.target ? targets.get(entry.target.record) : undefined;
    const r = await c.client.rpc(entry.name, callParams(entry, c.resident, target));
    const body = JSON.stringify(r.body);
    expect(r.error?.code, `params must pass: ${body}`).not.toBe(-32602);
    if (allows(status, entry)) {
      expect(gateRefused(r, status), `${actions(entry).join(", ")} is allowed to ${status}: ${body}`).toBe(false);
      expect(r.error?.data?.variant, `refused before the gate: ${body}`).not.toBe("NotOwner");
    } else {
      expect(r.error, body).toMatchObject({ code: -32005, data: { variant: "InvalidState", status } });
      expect(gateRefused(r, status), `not the gate's refusal: ${body}`).toBe(true);
    }
  });

  const issuers = CALLED.filter((e) => gatedByTarget(e) && e.target!.foreignResident);
  test.each(issuers.map((e) => [e.name, e] as const))("%s, its own resident as the issuer", async (_name, entry) => {
    const c = callers.get(status)!;
    const own = await issuedBy(t, entry.target!.record, c.resident);
    const r = await c.client.rpc(entry.name, callParams(entry, c.resident, own));
    expect(r.error, JSON.stringify(r.body)).toMatchObject({ code: -32005, data: { variant: "InvalidState", status } });
  });
});
