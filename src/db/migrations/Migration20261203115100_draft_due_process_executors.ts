import { Migration } from '@mikro-orm/migrations';

/** Issue 30: a cooperative's draft carries the discipline executors it will be registered with. */
export class Migration20261203115100_draft_due_process_executors extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "entity_draft" add column "due_process_executors" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "entity_draft" drop column "due_process_executors";`);
  }

}
