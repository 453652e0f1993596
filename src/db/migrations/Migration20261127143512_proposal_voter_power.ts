import { Migration } from '@mikro-orm/migrations';

export class Migration20261127143512_proposal_voter_power extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "proposal_voter_power" ("sid" text not null, "proposal_id" text not null, "company_id" text not null, "subject_id" text not null, "voting_power" double precision not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "proposal_voter_power_pkey" primary key ("sid"));`);
    this.addSql(`create index "proposal_voter_power_proposal_id_index" on "proposal_voter_power" ("proposal_id");`);
    this.addSql(`alter table "proposal_voter_power" add constraint "proposal_voter_power_proposal_id_subject_id_unique" unique ("proposal_id", "subject_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "proposal_voter_power" cascade;`);
  }

}
