import { beforeAll, describe, expect, test } from "vitest";
import type { RpcReply } from "../support/app.ts";
import { member } from "../support/entities.ts";
import { count } from "../support/helpers.ts";
import {
  CASTS,
  type CastSpec,
  type Company,
  companyRows,
  expected,
  paramsFor,
  type Row,
  staffCompany,
} from "./support.ts";

/**
 * The rows whose spec declares `x-issuer-role` (x-auth `user`; the handler checks the issuer): the issuer param names
 * the company, called by one caller per role, or a resident, the caller's own or someone else's. The real handler
 * runs, so "refused by the rule" is told from a later refusal by the rule's own answers (the same NotFound and
 * Forbidden the dispatcher gives for `company:<role>`, and the declared `foreignResident` for a resident); a refused
 * call writes no invoice. Allowed calls may then fail on the sample params: only the rule's answers are asserted.
 */

const rows = companyRows().filter((r) => r.rule.foreignResident !== null);

let c: Company;
let foreignResident: string;

beforeAll(async () => {
  c = await staffCompany();
  foreignResident = (await member(c.t)).resident;
});

type Outcome = "allowed" | "NotFound" | "Forbidden" | "NotOwner";

/** Which answer of the issuer rule the reply is, or `allowed` when it is none of them (the rule let it through). */
function ruleAnswer(r: RpcReply, row: Row, issuer: string): Outcome {
  const e = r.error;
  expect(e?.code, `params must be valid: ${JSON.stringify(r.body)}`).not.toBe(-32602);
  if (e?.code === -32003 && (e.message === "company not found" || e.message === "issuer not found")) return "NotFound";
  if (e?.data?.variant === "Forbidden" && e.message === `needs the ${row.rule.role} role in ${issuer}`) {
    return "Forbidden";
  }
  if (e?.data?.variant === "NotOwner" && e.message === `${row.rule.param} names a resident the caller does not own`)
    return "NotOwner";
  return "allowed";
}

async function call(row: Row, cast: string, issuer: string): Promise<{ outcome: Outcome; written: number }> {
  const caller = c.callers.get(cast)!;
  const before = await count(c.t, "zone_invoice");
  const r = await caller.client.rpc(row.entry.name, paramsFor(row, issuer, caller));
  return { outcome: ruleAnswer(r, row, issuer), written: (await count(c.t, "zone_invoice")) - before };
}

function expectOutcome(got: { outcome: Outcome; written: number }, want: Outcome) {
  expect(got.outcome).toBe(want);
  if (want !== "allowed") expect(got.written, "a refused call wrote an invoice").toBe(0);
}

test("the invoice operations that take an issuer declare x-issuer-role", () => {
  expect(rows.map((r) => r.entry.name)).toEqual(
    expect.arrayContaining(["invoiceservice.create", "invoiceservice.list", "invoiceservice.send_invoice"]),
  );
});

describe.each(rows)("$entry.name, issuer a company (x-issuer-role $rule.role)", (row) => {
  test.each(CASTS)("$name", async (cast: CastSpec) => {
    expectOutcome(await call(row, cast.name, c.company), expected(row.rule.role, cast));
  });
});

describe.each(rows)("$entry.name, issuer a resident", (row) => {
  const foreign = row.rule.foreignResident ?? "NotFound";

  test("the caller's own resident passes", async () => {
    const own = c.callers.get("stranger")!.resident;
    expectOutcome(await call(row, "stranger", own), "allowed");
  });

  test(`another user's resident is ${foreign}, even for a director of the company`, async () => {
    expectOutcome(await call(row, "stranger", foreignResident), foreign);
    expectOutcome(await call(row, "director", foreignResident), foreign);
  });

  test("an administrator's session may name any resident", async () => {
    expectOutcome(await call(row, "administrator (session)", foreignResident), "allowed");
  });

  test("an id that is neither a company nor a resident is NotFound", async () => {
    expectOutcome(await call(row, "administrator (session)", "FZ-2026-RA999999"), "NotFound");
  });
});
