import { Migration } from '@mikro-orm/migrations';

export class Migration20261125125435_registration_requests_kyb extends Migration {

  override async up(): Promise<void> {
    // The submitter columns are new on a table no operation wrote before; the default only fills rows a
    // database might hold from hand edits, and is dropped so the column matches its entity.
    this.addSql(`alter table "external_company_registration" add column "user_id" text not null default '', add column "submitter_dr_id" text not null default '', add column "rejection_reason" text null;`);
    this.addSql(`alter table "external_company_registration" alter column "user_id" drop default, alter column "submitter_dr_id" drop default;`);
    this.addSql(`create index "external_company_registration_user_id_index" on "external_company_registration" ("user_id");`);
    // One live (open or approved) verification per company register entry; a rejected one frees it.
    this.addSql(`create unique index "external_company_registration_live_company_unique" on "external_company_registration" ("jurisdiction", "registration_number") where "kyb_status" <> 'rejected';`);
    // The canonical text a partner's signature was verified over at submission (requests before this had none).
    this.addSql(`alter table "registration_request" add column "signed_payload" text not null default '';`);
    this.addSql(`alter table "registration_request" alter column "signed_payload" drop default;`);
    // One open request per partner, client email and request type.
    this.addSql(`create unique index "registration_request_open_client_unique" on "registration_request" ("partner_id", "client_email", "request_type") where "status" in ('pending', 'under_review', 'needs_info');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "registration_request_open_client_unique";`);
    this.addSql(`alter table "registration_request" drop column "signed_payload";`);
    this.addSql(`drop index "external_company_registration_live_company_unique";`);
    this.addSql(`drop index "external_company_registration_user_id_index";`);
    this.addSql(`alter table "external_company_registration" drop column "user_id", drop column "submitter_dr_id", drop column "rejection_reason";`);
  }

}
