import { Migration } from '@mikro-orm/migrations';

export class Migration20261125123721_resident_ids extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "external_id_state" add column "mint_key" text not null;`);
    // One personal resident per user: a user's own residents carry no partner_id (partner-onboarded ones no user_id).
    this.addSql(`create unique index "digital_resident_personal_user_unique" on "digital_resident" ("user_id") where "partner_id" is null and "user_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "digital_resident_personal_user_unique";`);
    this.addSql(`alter table "external_id_state" drop column "mint_key";`);
  }

}
