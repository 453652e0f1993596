import { Migration } from "@mikro-orm/migrations";

/** Hand-written test migration. The first addSql holds two statements on purpose (simple-protocol path). */
export class Migration20250101000000_db_test extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "thing" (
        "id" text primary key,
        "name" text not null,
        "payload" jsonb not null default '{}',
        "tags" text[] not null default '{}',
        "created_at" timestamptz not null,
        "active" boolean not null default true,
        "score" double precision not null default 0,
        "counter" integer not null default 0,
        "note" text null
      );
      create index "thing_name_idx" on "thing" ("name");
    `);
    this.addSql(`
      create table "event" (
        "id" serial primary key,
        "thing_id" text not null references "thing" ("id") on delete cascade,
        "kind" text not null,
        "at" timestamptz not null default now(),
        "seq" bigint not null default 0,
        "amount" numeric(12, 2) null
      )
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "event"; drop table "thing";`);
  }
}
