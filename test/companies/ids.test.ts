import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { companyIdKind } from "../../src/domain/formatted-ids.ts";
import { resetDatabase } from "../support/database.ts";
import { companyInUse, counterValue, mint, mintIn, setCounter } from "./ids-support.ts";

// Company and cooperative ids (issue 16, "Ids"): `<PREFIX>-<YYYY>-Y<6 digits>` / `...-P<6 digits>` from a rolling
// Counter row per prefix, year and kind; a number in use is skipped; external ids minted like residents'.
let orm: MikroORM;
const now = new Date("2026-11-25T12:00:00.000Z");

beforeEach(async () => {
  orm = await resetDatabase();
});

const countCompanies = async () =>
  Number((await orm.em.fork().execute("select count(*) as n from zone_company"))[0]?.n);

const rowOf = async (companyId: string) =>
  (await orm.em.fork().execute("select * from zone_company where company_id = ?", [companyId]))[0];

describe("company id kinds", () => {
  test("coop company types are cooperatives (P), every other type a company (Y)", () => {
    expect(companyIdKind("coop_standard_fzc")).toBe("P");
    expect(companyIdKind("coop_platinum_fzc")).toBe("P");
    for (const type of ["single_fzc", "startup_fzc", "growth_fzc", "global_fzc"]) expect(companyIdKind(type)).toBe("Y");
  });
});

describe("createCompanyRow", () => {
  test("companies and cooperatives are numbered separately, per year, from 1", async () => {
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000001");
    expect((await mint(orm, now, { company_type: "growth_fzc" })).company_id).toBe("FZ-2026-Y000002");
    expect((await mint(orm, now, { company_type: "coop_standard_fzc" })).company_id).toBe("FZ-2026-P000001");
    expect((await mint(orm, now, { company_type: "coop_platinum_fzc" })).company_id).toBe("FZ-2026-P000002");
    expect((await mint(orm, new Date("2027-01-01T00:00:00.000Z"))).company_id).toBe("FZ-2027-Y000001");
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000003");
  });

  test("the row is inserted with the fields, a minted external id, status draft and owner_resident_id as given", async () => {
    const plain = await mint(orm, now);
    const owned = await mint(orm, now, { owner_resident_id: "FZ-2026-RA000007", user_id: "partner-wallet" });
    expect(plain.external_id).toMatch(/^FZX-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(owned.external_id).not.toBe(plain.external_id);
    expect(owned.external_id_counter).toBe((plain.external_id_counter ?? 0) + 1);
    const stored = await rowOf(owned.company_id);
    expect(stored).toMatchObject({
      company_id: "FZ-2026-Y000002",
      user_id: "partner-wallet",
      owner_resident_id: "FZ-2026-RA000007",
      name: "Acme FZC",
      status: "draft",
      external_id: owned.external_id,
    });
    expect((await rowOf(plain.company_id))?.owner_resident_id).toBeNull();
  });

  test("a rolled-back creation gives its company number and external counter back", async () => {
    await expect(
      orm.em.fork().transactional(async (em) => {
        await mintIn(em, now);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    const row = await mint(orm, now);
    expect(row.company_id).toBe("FZ-2026-Y000001");
    expect(row.external_id_counter).toBe(1);
    expect(await countCompanies()).toBe(1);
  });
});

describe("rollover", () => {
  test("after 999,999 the numbering starts again at 1", async () => {
    await setCounter(orm, "FZ-2026-Y", 999_998);
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y999999");
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000001");
    expect(await counterValue(orm, "FZ-2026-Y")).toBe(1);
  });

  test("numbers whose ids are in use are skipped, across the rollover; the counter stays on the number given", async () => {
    await setCounter(orm, "FZ-2026-Y", 999_998);
    for (const id of ["FZ-2026-Y999999", "FZ-2026-Y000001", "FZ-2026-Y000002", "FZ-2026-Y000004"])
      await companyInUse(orm, id);
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000003");
    expect(await counterValue(orm, "FZ-2026-Y")).toBe(3);
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000005");
    expect(await countCompanies()).toBe(6);
  });

  test("a cooperative id in use does not skip a company number (kinds are separate)", async () => {
    await companyInUse(orm, "FZ-2026-P000001");
    expect((await mint(orm, now)).company_id).toBe("FZ-2026-Y000001");
    expect((await mint(orm, now, { company_type: "coop_standard_fzc" })).company_id).toBe("FZ-2026-P000002");
  });

  test("the unique index refuses a second row with the same company id", async () => {
    await companyInUse(orm, "FZ-2026-Y000009");
    await expect(companyInUse(orm, "FZ-2026-Y000009")).rejects.toThrow();
    expect(await countCompanies()).toBe(1);
  });
});
