import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 17: the SigningAuthority record (one active row per company and resident), and one pending shareholder
 * invitation per company and (lower-cased) invitee email (docs/decisions.md "Directors, signing authority and
 * shareholder invitations (issue 17)").
 */
export class Migration20261127143624_signing_authority extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "signing_authority" ("sid" text not null, "company_id" text not null, "resident_id" text not null, "status" text not null default 'active', "valid_from" timestamptz(3) not null, "valid_to" timestamptz(3) null, "granted_by" text not null, "revoked_by" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "signing_authority_pkey" primary key ("sid"));`);
    this.addSql(`create index "signing_authority_company_id_index" on "signing_authority" ("company_id");`);
    this.addSql(`create index "signing_authority_resident_id_index" on "signing_authority" ("resident_id");`);
    this.addSql(`create unique index "signing_authority_active_holder_unique" on "signing_authority" ("company_id", "resident_id") where "status" = 'active';`);
    this.addSql(`create unique index "shareholder_invite_pending_email_unique" on "shareholder_invite" ("company_id", "invitee_email") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "shareholder_invite_pending_email_unique";`);
    this.addSql(`drop table if exists "signing_authority" cascade;`);
  }

}
