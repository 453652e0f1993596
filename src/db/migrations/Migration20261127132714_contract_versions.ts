import { Migration } from '@mikro-orm/migrations';

export class Migration20261127132714_contract_versions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "registration_contract" drop constraint "registration_contract_category_key_unique";`);

    this.addSql(`create index "registration_contract_category_key_index" on "registration_contract" ("category_key");`);
    this.addSql(`alter table "registration_contract" add constraint "registration_contract_category_key_version_unique" unique ("category_key", "version");`);
    this.addSql(`create unique index "registration_contract_active_key_unique" on "registration_contract" ("category_key") where "is_active";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "registration_contract_category_key_index";`);
    this.addSql(`alter table "registration_contract" drop constraint "registration_contract_category_key_version_unique";`);
    this.addSql(`drop index if exists "registration_contract_active_key_unique";`);

    this.addSql(`alter table "registration_contract" add constraint "registration_contract_category_key_unique" unique ("category_key");`);
  }

}
