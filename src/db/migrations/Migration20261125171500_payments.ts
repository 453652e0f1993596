import { Migration } from '@mikro-orm/migrations';

export class Migration20261125171500_payments extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "payment" add column "auto_topup" boolean not null default false;`);
    this.addSql(`create index "payment_external_id_index" on "payment" ("external_id");`);
    this.addSql(`alter table "payment" add constraint "payment_transaction_hash_unique" unique ("transaction_hash");`);
    this.addSql(`create unique index "payment_open_auto_topup_unique" on "payment" ("user_id") where "auto_topup" = true and "status" in ('pending', 'confirming');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "payment_external_id_index";`);
    this.addSql(`alter table "payment" drop constraint "payment_transaction_hash_unique";`);
    this.addSql(`drop index if exists "payment_open_auto_topup_unique";`);
    this.addSql(`alter table "payment" drop column "auto_topup";`);
  }

}
