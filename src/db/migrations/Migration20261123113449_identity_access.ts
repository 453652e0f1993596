import { Migration } from '@mikro-orm/migrations';

export class Migration20261123113449_identity_access extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "partner_configuration" add column "credentials_rotated_at" timestamptz(3) null;`);

    this.addSql(`alter table "user" add column "suspension_reason" text null;`);

    this.addSql(`alter table "webhook_event" add column "payload_hash" text null;`);

    // Audit rows and administrator actions are append-only even for code that bypasses the services.
    this.addSql(`create or replace function "refuse_append_only_change"() returns trigger language plpgsql as $$ begin raise exception 'table % is append-only', tg_table_name using errcode = 'insufficient_privilege'; end $$;`);
    this.addSql(`create trigger "user_audit_log_append_only" before update or delete on "user_audit_log" for each row execute function "refuse_append_only_change"();`);
    this.addSql(`create trigger "admin_action_append_only" before update or delete on "admin_action" for each row execute function "refuse_append_only_change"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "admin_action_append_only" on "admin_action";`);
    this.addSql(`drop trigger if exists "user_audit_log_append_only" on "user_audit_log";`);
    this.addSql(`drop function if exists "refuse_append_only_change"();`);

    this.addSql(`alter table "partner_configuration" drop column "credentials_rotated_at";`);

    this.addSql(`alter table "user" drop column "suspension_reason";`);

    this.addSql(`alter table "webhook_event" drop column "payload_hash";`);
  }

}
