import { Migration } from '@mikro-orm/migrations';

export class Migration20261125141816_expense_submitted_by extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "zone_expense" add column "submitted_by" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "zone_expense" drop column "submitted_by";`);
  }

}
