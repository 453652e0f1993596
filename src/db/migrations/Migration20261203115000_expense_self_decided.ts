import { Migration } from '@mikro-orm/migrations';

/** Issue 30: an expense decided by its own submitter, the company's whole board, says so (self_decided). */
export class Migration20261203115000_expense_self_decided extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "zone_expense" add column "self_decided" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "zone_expense" drop column "self_decided";`);
  }

}
