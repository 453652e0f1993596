import { Migration } from '@mikro-orm/migrations';

/** One registered (active, inactive or suspended) company per name, case-insensitively (docs/decisions.md). */
export class Migration20261127134000_company_live_name extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create unique index "zone_company_live_name_unique" on "zone_company" (lower("name")) where "status" in ('active', 'inactive', 'suspended');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "zone_company_live_name_unique";`);
  }

}
