import { Migration } from '@mikro-orm/migrations';

export class Migration20261125141808_credit_ledger extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create unique index "credit_transaction_top_up_payment_unique" on "credit_transaction" ("reference_id") where "tx_type" = 'top_up';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "credit_transaction_top_up_payment_unique";`);
  }

}
