import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to an api_key row (policy update, revoke, rotate, last_used_at) notifies channel `freezone_api_key`
 * with the key's sid, so instances that cache a key's MCP policy drop it at once (src/mcp/policy-cache.ts).
 */
export class Migration20261123124000_mcp_policy_notify extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create or replace function "freezone_api_key_changed"() returns trigger language plpgsql as $$
begin
  perform pg_notify('freezone_api_key', coalesce(new.sid, old.sid));
  return null;
end $$;`);
    this.addSql(`create trigger "api_key_changed" after update or delete on "api_key" for each row execute function "freezone_api_key_changed"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "api_key_changed" on "api_key";`);
    this.addSql(`drop function if exists "freezone_api_key_changed"();`);
  }

}
