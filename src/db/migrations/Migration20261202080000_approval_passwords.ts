import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 29: a password never rests in an approval. Approvals stored before carried the account password of the two
 * agent-callable methods that take one (x-password `password`: governanceservice.cast_vote, taxservice.submit_filing)
 * in plaintext arguments; it is removed from every such row (the owner gives it again when approving). Rows stored
 * from now on are sealed with the deployment key, which SQL cannot do; older rows stay readable as plaintext JSON.
 */
export class Migration20261202080000_approval_passwords extends Migration {

  override async up(): Promise<void> {
    this.addSql(
      `update "mcp_approval" set "arguments" = ("arguments"::jsonb - 'password')::text
        where "rpc_method" in ('governanceservice.cast_vote', 'taxservice.submit_filing')
          and "arguments" not like 'enc:%';`,
    );
  }

  override async down(): Promise<void> {
    // A removed password cannot be put back.
  }

}
