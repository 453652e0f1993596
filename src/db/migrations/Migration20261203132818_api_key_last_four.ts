import { Migration } from '@mikro-orm/migrations';

export class Migration20261203132818_api_key_last_four extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "api_key" add column "last_four" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_key" drop column "last_four";`);
  }

}
