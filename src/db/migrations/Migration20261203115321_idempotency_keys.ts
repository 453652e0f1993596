import { Migration } from '@mikro-orm/migrations';

export class Migration20261203115321_idempotency_keys extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_key" ("sid" text not null, "scope" text not null, "idempotency_key" text not null, "method" text not null, "fingerprint" text not null, "answer" text not null, "expires_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "idempotency_key_pkey" primary key ("sid"));`);
    this.addSql(`create index "idempotency_key_expires_at_index" on "idempotency_key" ("expires_at");`);
    this.addSql(`alter table "idempotency_key" add constraint "idempotency_key_scope_idempotency_key_unique" unique ("scope", "idempotency_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_key" cascade;`);
  }

}
