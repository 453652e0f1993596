import { Migration } from '@mikro-orm/migrations';

/**
 * ApiKey.mcp_discovery_mode (issue 19): a key in discovery mode is listed the MCP meta-tools (search, describe,
 * call) instead of the catalogue. Existing keys keep the full catalogue (default false). The api_key row trigger
 * of mcp_policy_notify already notifies every change of the row, so policy caches drop the key when it flips.
 */
export class Migration20261127201939_mcp_discovery_mode extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "api_key" add column "mcp_discovery_mode" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_key" drop column "mcp_discovery_mode";`);
  }

}
