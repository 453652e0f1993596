import { Migration } from '@mikro-orm/migrations';
import { nameKey } from '../../domain/name-key.ts';

/** The tables of the uniquely named records. */
const NAMED = ['zone_company', 'partner_configuration', 'treasury_account'] as const;

const LIVE = `"status" in ('active', 'inactive', 'suspended')`;

/**
 * `name_key` on the uniquely named records (issue 29, docs/decisions.md "Look-alike names (issue 29)"): the key of
 * src/domain/name-key.ts, computed here in JS with the same function (PostgreSQL has no exact equivalent of its
 * invisibles and whitespace classes nor of JS lower-casing). The live-name index of companies moves from
 * lower(name) to the key, with the same name and condition. Companies that already collide by key (a look-alike
 * registered before this migration) stop it with their ids: void all but one, then migrate again.
 */
export class Migration20261202090000_name_keys extends Migration {

  override async up(): Promise<void> {
    for (const table of NAMED) {
      await this.execute(`alter table "${table}" add column "name_key" text;`);
      const rows = (await this.execute(`select sid, name from "${table}";`)) as { sid: string; name: string }[];
      for (const row of rows) {
        await this.execute(`update "${table}" set "name_key" = ? where sid = ?;`, [nameKey(row.name), row.sid]);
      }
      await this.execute(`alter table "${table}" alter column "name_key" set not null;`);
    }
    await this.refuseLiveCollisions();
    await this.execute(`drop index "zone_company_live_name_unique";`);
    await this.execute(`create unique index "zone_company_live_name_unique" on "zone_company" ("name_key") where ${LIVE};`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "zone_company_live_name_unique";`);
    this.addSql(`create unique index "zone_company_live_name_unique" on "zone_company" (lower("name")) where ${LIVE};`);
    for (const table of NAMED) this.addSql(`alter table "${table}" drop column "name_key";`);
  }

  private async refuseLiveCollisions(): Promise<void> {
    const clashes = (await this.execute(
      `select name_key, array_agg(company_id order by company_id) as company_ids from "zone_company"
       where ${LIVE} group by name_key having count(*) > 1 order by name_key;`,
    )) as { name_key: string; company_ids: string[] }[];
    if (clashes.length === 0) return;
    const list = clashes.map((c) => `${JSON.stringify(c.name_key)}: ${c.company_ids.join(', ')}`).join('; ');
    throw new Error(`name_keys: registered companies bear look-alike names (${list}); void all but one of each, then migrate again`);
  }

}
