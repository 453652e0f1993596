import type { Client, TestApp } from "../support/app.ts";
import { type Staffed, staffedCompanies, startFinanceApp } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";

/** The company-contract test files' set-up: an app, a staffed company, another owner, and call helpers. */

export const DATA = {
  name: "  Hosting services  ",
  contract_type: "service",
  counterparty: "Cloud Ltd",
  start_date: "2026-11-01T00:00:00.000Z",
};

type Reply = Awaited<ReturnType<Client["rpc"]>>;
export const typed = (r: Reply) => (r.error ? { error: r.error } : { result: r.result });
export const contractError = (variant: string) => ({ type: "ContractError", variant });

export interface ContractFixture {
  t: TestApp;
  s: Staffed;
  owner: Client;
}

/** Sessions outlive the clock moves of the expiry tests. */
export async function contractFixture(): Promise<ContractFixture> {
  const t = await startFinanceApp({ accessTokenTtlS: 365 * 24 * 3600 });
  const s = await staffedCompanies(t, "contracts-owner@example.org");
  const owner = await t.register("contracts-owner2@example.org");
  return { t, s, owner };
}

/** Call helpers on the fixture `fx()` gives once set up (the director of the staffed company by default). */
export function contractCalls(fx: () => ContractFixture) {
  const create = (c: Client = fx().s.director.client, data: Record<string, unknown> = {}, fzc = fx().s.company) =>
    c.rpc("contractservice.create_company_contract", { fzc_id: fzc, data: { ...DATA, ...data } });
  return {
    writes: async () => [
      await sql(fx().t, `select * from "contract" order by sid`),
      await sql(fx().t, `select * from "document_audience" order by sid`),
      await sql(fx().t, `select * from "admin_action" order by sid`),
    ],
    create,
    created: async (data: Record<string, unknown> = {}, fzc = fx().s.company): Promise<any> => {
      const r = await create(fx().s.director.client, data, fzc);
      if (!r.result) throw new Error(JSON.stringify(r.error));
      return r.result;
    },
    update: (c: Client, contractId: string, data: Record<string, unknown>, fzc = fx().s.company) =>
      c.rpc("contractservice.update_company_contract", { fzc_id: fzc, contract_id: contractId, data }),
    archive: (c: Client, contractId: string, fzc = fx().s.company) =>
      c.rpc("contractservice.archive_company_contract", { fzc_id: fzc, contract_id: contractId }),
    get: (c: Client, contractId: string, fzc = fx().s.company) =>
      c.rpc("contractservice.get_company_contract", { fzc_id: fzc, contract_id: contractId }),
  };
}
