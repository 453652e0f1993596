import { Migration } from '@mikro-orm/migrations';

/** Issue 30: invoiceservice.cancel_invoice moves a sent or overdue invoice to `cancelled` with when and why. */
export class Migration20261202100000_invoice_cancellation extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "zone_invoice" add column "cancelled_at" timestamptz(3) null, add column "cancellation_reason" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "zone_invoice" drop column "cancelled_at", drop column "cancellation_reason";`);
  }

}
