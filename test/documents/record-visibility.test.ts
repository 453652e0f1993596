import { beforeAll, describe, expect, test } from "vitest";
import { formCompany, journeyCast, type Resident } from "../journeys/support.ts";
import { type Client, PASSWORD } from "../support/app.ts";

// Issue 30, "Visibility is applied to one kind of document": every kind with DocumentAudience rows is read through
// the visibility rule (the one documentaudienceservice.can_view answers), by get and by list. Set up through the API
// only: alice founds the company; bob is appointed director, records are made, bob is removed, more records are made,
// carol is appointed, more records are made. Each record belongs to the role periods it was made in (docs/decisions.md
// "Visibility of company records (issue 30)"): bob reads the first set only, carol the last only, alice all three,
// dan (never a member) none; can_view agrees with the reads for every kind, record and subject.

const cast = journeyCast({
  alice: { first_name: "Alice", last_name: "Founder" },
  bob: { first_name: "Bob", last_name: "Removed" },
  carol: { first_name: "Carol", last_name: "Joiner" },
  dan: { first_name: "Dan", last_name: "Stranger" },
});

/** A reply as the tests read it: a result or a JSON-RPC error. */
type Reply = { result: unknown } | { error: { code: number; data?: Record<string, unknown> } };

/** One kind of company record: how its director makes one, and its reads (get where the API has one, and list). */
interface Kind {
  name: string;
  make(n: number): Promise<string>;
  get?: (c: Client, id: string) => Promise<Reply>;
  list: (c: Client) => Promise<Reply>;
}

let companyId = "";
let kinds: Kind[] = [];
/** Record ids by kind name and period: 0 = bob's period, 1 = between bob and carol, 2 = carol's period. */
const made = new Map<string, string[]>();

const ids = (r: Reply): string[] => {
  if ("error" in r) throw new Error(`list refused: ${JSON.stringify(r.error)}`);
  return (r.result as { items: { sid: string }[] }).items.map((i) => i.sid);
};

function kindsFor(alice: Resident): Kind[] {
  const a = alice.client;
  const company = { company_id: companyId };
  const fzc = { fzc_id: companyId };
  const sidOf = (r: { sid: string }) => r.sid;
  return [
    {
      name: "financial report",
      make: async () =>
        sidOf(
          await a.callOk("reportservice.generate_balance_sheet", {
            ...company,
            as_of_date: cast.zone.t.clock.now().toISOString(),
            generated_by: alice.residentId,
          }),
        ),
      get: (c, id) => c.call("reportservice.get_report", { report_id: id }),
      list: (c) => c.call("reportservice.list_reports", company),
    },
    {
      name: "contract",
      make: async (n) =>
        sidOf(
          await a.callOk("contractservice.create_company_contract", {
            ...fzc,
            data: {
              name: `Hosting ${n}`,
              contract_type: "service",
              counterparty: "Cloud Ltd",
              start_date: "2026-11-01T00:00:00.000Z",
            },
          }),
        ),
      get: (c, id) => c.call("contractservice.get_company_contract", { ...fzc, contract_id: id }),
      list: (c) => c.call("contractservice.list_company_contracts", fzc),
    },
    {
      name: "expense",
      make: async (n) =>
        sidOf(
          await a.callOk("expenseservice.create", {
            ...fzc,
            data: {
              receipt_number: `R-${n}`,
              vendor_name: "Acme Supplies",
              description: "printer paper",
              amount: 12.5,
              currency: "USD",
              category: "office",
              expense_date: "2026-11-01T00:00:00.000Z",
            },
          }),
        ),
      get: (c, id) => c.call("expenseservice.get", { expense_id: id }),
      list: (c) => c.call("expenseservice.list", fzc),
    },
    {
      name: "invoice",
      make: async (n) =>
        sidOf(
          await a.callOk("invoiceservice.create", {
            ...fzc,
            data: {
              description: `Consulting ${n}`,
              currency: "USD",
              due_date: "2027-01-31T00:00:00.000Z",
              recipient_email: "client@example.org",
              line_items: [{ description: "Advice", quantity: 1, unit_price: 100, amount: 100, tax_rate: 0 }],
            },
          }),
        ),
      get: (c, id) => c.call("invoiceservice.get", { invoice_id: id }),
      list: (c) => c.call("invoiceservice.list", fzc),
    },
    {
      name: "tax filing",
      make: async (n) =>
        sidOf(
          await a.callOk("taxservice.create_filing", {
            ...company,
            filing_type: "monthly",
            period_start: `2026-0${n + 6}-01T00:00:00.000Z`,
            period_end: `2026-0${n + 7}-01T00:00:00.000Z`,
          }),
        ),
      get: (c, id) => c.call("taxservice.get_filing", { filing_id: id }),
      list: (c) => c.call("taxservice.list_filings", company),
    },
    {
      name: "resolution",
      make: async (n) => {
        const proposal = await a.callOk("governanceservice.create_proposal", {
          ...company,
          title: `Motion ${n}`,
          description: "Renew the lease.",
          category: "strategic",
          kind: "ordinary",
          voting_days: 7,
          allow_abstention: true,
        });
        await a.callOk("governanceservice.cast_vote", {
          proposal_id: proposal.sid,
          voter_id: alice.residentId,
          vote_value: "for",
          password: PASSWORD,
        });
        await a.callOk("governanceservice.tally_votes", { proposal_id: proposal.sid });
        return sidOf(
          await a.callOk("governanceservice.execute_proposal", {
            proposal_id: proposal.sid,
            executor_id: alice.residentId,
          }),
        );
      },
      list: (c) => c.call("governanceservice.list_resolutions", company),
    },
    {
      name: "company message",
      make: async (n) =>
        sidOf(
          await a.callOk("messageservice.create_company_message", {
            ...company,
            title: `Notice ${n}`,
            body: "The office is closed on Friday.",
            category: "general",
          }),
        ),
      list: (c) => c.call("messageservice.list_company_messages", company),
    },
  ];
}

async function makeAll(period: number): Promise<void> {
  for (const kind of kinds) {
    made.set(kind.name, [...(made.get(kind.name) ?? []), await kind.make(period)]);
    cast.zone.t.clock.advance(1);
  }
}

beforeAll(async () => {
  const { zone, alice, bob, carol } = cast;
  const clock = zone.t.clock;
  companyId = (await formCompany(zone, { resident: alice, units: 1000 }, [])).companyId;
  kinds = kindsFor(alice);
  const director = (resident: Resident, method: "appoint_director" | "remove_director") =>
    alice.client.callOk(`governanceservice.${method}`, {
      company_id: companyId,
      resident_id: resident.residentId,
      ...(method === "appoint_director" ? { appointed_by: alice.residentId } : { removed_by: alice.residentId }),
    } as never);
  clock.advance(60);
  await director(bob, "appoint_director");
  clock.advance(60);
  await makeAll(0);
  clock.advance(60);
  await director(bob, "remove_director");
  clock.advance(60);
  await makeAll(1);
  clock.advance(60);
  await director(carol, "appoint_director");
  clock.advance(60);
  await makeAll(2);
}, 120_000);

/** The periods each person's reads must show: bob his own, carol hers, alice every one, dan none. */
const SEES: Record<"alice" | "bob" | "carol" | "dan", number[]> = {
  alice: [0, 1, 2],
  bob: [0],
  carol: [2],
  dan: [],
};

const recordsOf = (kind: Kind, periods: number[]) => periods.map((p) => made.get(kind.name)?.[p] as string);

describe("every kind with audience rows is read through the visibility rule", () => {
  for (const who of ["alice", "bob", "carol"] as const) {
    test(`${who} lists exactly the records of the periods ${who} held a role in, for every kind`, async () => {
      const c = cast[who].client;
      for (const kind of kinds) {
        const listed = ids(await kind.list(c));
        expect({ kind: kind.name, listed: listed.sort() }).toEqual({
          kind: kind.name,
          listed: recordsOf(kind, SEES[who]).sort(),
        });
      }
    });

    test(`${who} gets the records of ${who}'s periods and NotFound for the others`, async () => {
      const c = cast[who].client;
      for (const kind of kinds) {
        if (!kind.get) continue;
        for (const [period, id] of (made.get(kind.name) ?? []).entries()) {
          const r = await kind.get(c, id);
          const expected = SEES[who].includes(period);
          expect({ kind: kind.name, period, ok: "result" in r }).toEqual({ kind: kind.name, period, ok: expected });
          if (!expected && "error" in r) expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
        }
      }
    });
  }

  test("the removed director (bob) still reads his period's report and contract: the issue's reproduction", async () => {
    const { bob } = cast;
    const report = made.get("financial report")?.[0] as string;
    const contract = made.get("contract")?.[0] as string;
    const verdict = (ref: string) =>
      bob.client.callOk("documentaudienceservice.can_view", { subject_id: bob.residentId, document_ref: ref });
    expect(await verdict(report)).toMatchObject({ can_view: true, reason: "role_overlap" });
    expect(await verdict(contract)).toMatchObject({ can_view: true, reason: "role_overlap" });
    const got = await bob.client.call("reportservice.get_report", { report_id: report });
    expect("result" in got && got.result.sid).toBe(report);
    const c = await bob.client.call("contractservice.get_company_contract", {
      fzc_id: companyId,
      contract_id: contract,
    });
    expect("result" in c && c.result.sid).toBe(contract);
  });

  test("get_company_contract's view_document row carries the decision, allowed or denied", async () => {
    const { bob } = cast;
    const [mine, later] = made.get("contract") as string[];
    for (const id of [mine, later]) {
      await bob.client.call("contractservice.get_company_contract", { fzc_id: companyId, contract_id: id as string });
    }
    const rows = (await bob.client.callOk("userauditlogservice.list_for_subject", { subject_id: bob.userId, limit: 2 }))
      .items;
    const decision = (ref: string | undefined) => {
      const row = rows.find((r) => r.target_ref === ref);
      return row && { allowed: row.allowed, ...JSON.parse(row.context) };
    };
    expect(decision(mine)).toMatchObject({
      allowed: true,
      visibility: "role_overlap",
      matched_subject_id: bob.residentId,
    });
    expect(decision(later)).toMatchObject({ allowed: false, visibility: "no_matching_role", matched_role_id: null });
  });

  test("a resident who never held a role (dan) gets NotFound from every list and get", async () => {
    const c = cast.dan.client;
    for (const kind of kinds) {
      const listed = await kind.list(c);
      expect({ kind: kind.name, error: "error" in listed && listed.error.code }).toEqual({
        kind: kind.name,
        error: -32003,
      });
      for (const id of made.get(kind.name) ?? []) {
        if (!kind.get) continue;
        const r = await kind.get(c, id);
        expect({ kind: kind.name, error: "error" in r && r.error.code }).toEqual({ kind: kind.name, error: -32003 });
      }
    }
  });

  test("can_view and the reads agree for every kind, record and subject", async () => {
    for (const who of ["alice", "bob", "carol"] as const) {
      const person = cast[who];
      for (const kind of kinds) {
        const listed = new Set(ids(await kind.list(person.client)));
        for (const id of made.get(kind.name) ?? []) {
          const verdict = await person.client.callOk("documentaudienceservice.can_view", {
            subject_id: person.residentId,
            document_ref: id,
          });
          const got = kind.get ? "result" in (await kind.get(person.client, id)) : listed.has(id);
          const v = verdict.can_view;
          expect({ who, kind: kind.name, id, listed: listed.has(id), got }).toEqual({
            who,
            kind: kind.name,
            id,
            listed: v,
            got: v,
          });
        }
      }
    }
  });
});
