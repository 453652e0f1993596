import { Migration } from '@mikro-orm/migrations';

export class Migration20261125124221_kyc extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "kyc_personal_data_resident_id_index";`);

    this.addSql(`alter table "kyc_personal_data" add constraint "kyc_personal_data_resident_id_unique" unique ("resident_id");`);

    this.addSql(`alter table "kyc_session" add column "kyc_provider_id" text null, add column "provider_reason" text null;`);

    // Hand-written: the attestation is immutable (seed 000), like the audit tables.
    this.addSql(`create trigger "kyc_artifact_attestation_append_only" before update or delete on "kyc_artifact_attestation" for each row execute function "refuse_append_only_change"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "kyc_artifact_attestation_append_only" on "kyc_artifact_attestation";`);

    this.addSql(`alter table "kyc_personal_data" drop constraint "kyc_personal_data_resident_id_unique";`);

    this.addSql(`create index "kyc_personal_data_resident_id_index" on "kyc_personal_data" ("resident_id");`);

    this.addSql(`alter table "kyc_session" drop column "kyc_provider_id", drop column "provider_reason";`);
  }

}
