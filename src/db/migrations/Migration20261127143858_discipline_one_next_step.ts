import { Migration } from '@mikro-orm/migrations';

/** Each discipline step has at most one next step (docs/decisions.md "Member discipline chain (issue 17)"). */
export class Migration20261127143858_discipline_one_next_step extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "governance_action_parent_action_sid_index";`);

    this.addSql(`alter table "governance_action" add constraint "governance_action_parent_action_sid_unique" unique ("parent_action_sid");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "governance_action" drop constraint "governance_action_parent_action_sid_unique";`);

    this.addSql(`create index "governance_action_parent_action_sid_index" on "governance_action" ("parent_action_sid");`);
  }

}
