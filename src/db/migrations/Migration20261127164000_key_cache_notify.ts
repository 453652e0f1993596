import { Migration } from '@mikro-orm/migrations';

/**
 * What decides an API key's caller besides its own row (whose changes mcp_policy_notify already notifies on
 * `freezone_api_key`) notifies channel `freezone_key_owner`, so instances that cache authenticated keys
 * (src/auth/key-cache.ts) drop them at once: a user's email, roles or suspension changed or the user deleted
 * (`user:<sid>`), a partner's activity changed or the partner deleted (`partner:<sid>`), and any of the three tables
 * truncated (`all`: TRUNCATE fires no row trigger).
 */
export class Migration20261127164000_key_cache_notify extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create or replace function "freezone_key_owner_changed"() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform pg_notify('freezone_key_owner', 'all');
  else
    perform pg_notify('freezone_key_owner', tg_argv[0] || ':' || coalesce(new.sid, old.sid));
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger "user_key_owner_changed" after update of email, roles, is_suspended on "user" for each row when (old.email is distinct from new.email or old.roles is distinct from new.roles or old.is_suspended is distinct from new.is_suspended) execute function "freezone_key_owner_changed"('user');`);
    this.addSql(`create trigger "user_key_owner_deleted" after delete on "user" for each row execute function "freezone_key_owner_changed"('user');`);
    this.addSql(`create trigger "user_key_owner_truncated" after truncate on "user" for each statement execute function "freezone_key_owner_changed"();`);
    this.addSql(`create trigger "partner_key_owner_changed" after update of is_active on "partner_configuration" for each row when (old.is_active is distinct from new.is_active) execute function "freezone_key_owner_changed"('partner');`);
    this.addSql(`create trigger "partner_key_owner_deleted" after delete on "partner_configuration" for each row execute function "freezone_key_owner_changed"('partner');`);
    this.addSql(`create trigger "partner_key_owner_truncated" after truncate on "partner_configuration" for each statement execute function "freezone_key_owner_changed"();`);
    this.addSql(`create trigger "api_key_truncated" after truncate on "api_key" for each statement execute function "freezone_key_owner_changed"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "api_key_truncated" on "api_key";`);
    this.addSql(`drop trigger if exists "partner_key_owner_truncated" on "partner_configuration";`);
    this.addSql(`drop trigger if exists "partner_key_owner_deleted" on "partner_configuration";`);
    this.addSql(`drop trigger if exists "partner_key_owner_changed" on "partner_configuration";`);
    this.addSql(`drop trigger if exists "user_key_owner_truncated" on "user";`);
    this.addSql(`drop trigger if exists "user_key_owner_deleted" on "user";`);
    this.addSql(`drop trigger if exists "user_key_owner_changed" on "user";`);
    this.addSql(`drop function if exists "freezone_key_owner_changed"();`);
  }

}
