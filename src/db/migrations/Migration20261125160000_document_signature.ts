import { Migration } from '@mikro-orm/migrations';

export class Migration20261125160000_document_signature extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "document_signature" ("sid" text not null, "user_id" text not null, "partner_id" text null, "entity_type" text not null, "entity_id" text not null, "document_type" text not null, "document_hash" text not null, "signature" text not null, "public_key" text not null, "key_version" bigint not null, "receipt_id" text not null, "signed_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "document_signature_pkey" primary key ("sid"));`);
    this.addSql(`create index "document_signature_user_id_index" on "document_signature" ("user_id");`);
    this.addSql(`create index "document_signature_entity_id_index" on "document_signature" ("entity_id");`);
    this.addSql(`create index "document_signature_document_hash_index" on "document_signature" ("document_hash");`);
    this.addSql(`alter table "document_signature" add constraint "document_signature_receipt_id_unique" unique ("receipt_id");`);
    this.addSql(`alter table "document_signature" add constraint "document_signature_entity_type_entity_id_signature_unique" unique ("entity_type", "entity_id", "signature");`);
    // Append-only at the database too: a recorded signature is never changed or deleted, and a key-history entry
    // only ever gets its valid_to closed once (docs/decisions.md "Keys and signatures").
    this.addSql(`create trigger "document_signature_append_only" before update or delete on "document_signature" for each row execute function "refuse_append_only_change"();`);
    this.addSql(`create or replace function "refuse_key_history_rewrite"() returns trigger language plpgsql as $$ begin if tg_op = 'DELETE' or old.valid_to is not null or new.valid_to is null or new.entity_type <> old.entity_type or new.entity_id <> old.entity_id or new.version <> old.version or new.public_key <> old.public_key or new.valid_from <> old.valid_from then raise exception 'table % is append-only (only valid_to is closed, once)', tg_table_name using errcode = 'insufficient_privilege'; end if; return new; end $$;`);
    this.addSql(`create trigger "public_key_history_append_only" before update or delete on "public_key_history" for each row execute function "refuse_key_history_rewrite"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "public_key_history_append_only" on "public_key_history";`);
    this.addSql(`drop function if exists "refuse_key_history_rewrite"();`);
    this.addSql(`drop table if exists "document_signature" cascade;`);
  }

}
