import { Migration } from '@mikro-orm/migrations';

export class Migration20261125171000_treasury extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "exchange_quote" ("sid" text not null, "user_id" text not null, "from_currency" text not null, "to_currency" text not null, "from_amount" numeric(18,2) not null, "exchange_rate" numeric(20,10) not null, "fee_percentage" numeric(9,6) not null, "fee_amount" numeric(18,2) not null, "to_amount" numeric(18,2) not null, "expires_at" timestamptz(3) not null, "exchange_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "exchange_quote_pkey" primary key ("sid"));`);
    this.addSql(`create index "exchange_quote_user_id_index" on "exchange_quote" ("user_id");`);

    this.addSql(`alter table "fund_transfer" add column "initiated_by_user" text null, add column "provider_ref" text null;`);

    this.addSql(`alter table "treasury_account" add column "pending_out" numeric(18,2) not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "exchange_quote" cascade;`);

    this.addSql(`alter table "fund_transfer" drop column "initiated_by_user", drop column "provider_ref";`);

    this.addSql(`alter table "treasury_account" drop column "pending_out";`);
  }

}
