import { Migration } from '@mikro-orm/migrations';

export class Migration20261125170600_invoices extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "email_outbox" add column "body_html" text null, add column "reply_to" text null, add column "attachment_filename" text null, add column "attachment_content_type" text null, add column "attachment_base64" text null;`);

    this.addSql(`alter table "zone_invoice" add constraint "zone_invoice_sender_entity_id_invoice_number_unique" unique ("sender_entity_id", "invoice_number");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "email_outbox" drop column "body_html", drop column "reply_to", drop column "attachment_filename", drop column "attachment_content_type", drop column "attachment_base64";`);

    this.addSql(`alter table "zone_invoice" drop constraint "zone_invoice_sender_entity_id_invoice_number_unique";`);
  }

}
