import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeAll, describe, expect, test } from "vitest";
import { ownedResidentIds } from "../../src/repos/digital-residents.ts";
import { resetDatabase } from "../support/database.ts";
import { insertRow, residentValues } from "../support/rows.ts";

// The dispatcher's actor binding and company roles read owned residents here; the rule is the pair (user_id,
// partner_id) of src/domain/resident-access.ts, with a reseller key owning its partner's user-less residents.
let orm: MikroORM;
const ids: Record<string, string> = {};

async function resident(name: string, userId: string | null, partnerId: string | null) {
  const row = await insertRow(
    orm,
    "DigitalResident",
    residentValues(userId ?? "x", { user_id: userId, partner_id: partnerId }),
  );
  ids[name] = String(row["resident_id"]);
}

beforeAll(async () => {
  orm = await resetDatabase();
  await resident("adaPersonal", "ada", null);
  await resident("acmeOnboarded", null, "acme");
  await resident("acmeWallet", "acme-wallet", "acme");
  await resident("globexOnboarded", null, "globex");
});

const owned = (userId: string, partnerId: string | null) => ownedResidentIds(orm.em.fork(), userId, partnerId);

describe("owned residents", () => {
  test("a personal caller owns its personal resident only, never a partner's user-less one", async () => {
    expect(await owned("ada", null)).toEqual([ids["adaPersonal"]]);
    expect(await owned("nobody", null)).toEqual([]);
  });

  test("a reseller key owns its partner's residents with its user or none, never another partner's", async () => {
    expect((await owned("acme-wallet", "acme")).sort()).toEqual([ids["acmeOnboarded"], ids["acmeWallet"]].sort());
    expect(await owned("ada", "acme")).toEqual([ids["acmeOnboarded"]]);
    expect(await owned("globex-wallet", "globex")).toEqual([ids["globexOnboarded"]]);
  });
});
