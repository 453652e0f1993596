import { Migration } from '@mikro-orm/migrations';

/** Issue 30: a platinum upgrade proposal names the member it would make a platinum member. */
export class Migration20261203113000_platinum_upgrade extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "proposal" add column "platinum_candidate_id" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "proposal" drop column "platinum_candidate_id";`);
  }

}
