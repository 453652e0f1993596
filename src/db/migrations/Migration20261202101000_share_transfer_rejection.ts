import { Migration } from '@mikro-orm/migrations';

/** Issue 30: shareholderservice.reject_transfer moves a pending transfer to `rejected` at rejected_at. */
export class Migration20261202101000_share_transfer_rejection extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "share_transfer" add column "rejected_at" timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "share_transfer" drop column "rejected_at";`);
  }

}
