import { Migration } from '@mikro-orm/migrations';

export class Migration20261125170500_tax_filing_live_period extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create unique index "tax_filing_live_period_unique" on "tax_filing" ("company_id", "filing_type", "period_start", "period_end") where "status" in ('draft', 'submitted', 'accepted');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "tax_filing_live_period_unique";`);
  }

}
