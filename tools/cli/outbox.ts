import { parseArgs } from "node:util";
import type { Config } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";

/** `outbox [--limit N]`: the newest emails in the outbox. */
export async function showOutbox(args: string[], config: Config): Promise<number> {
  const { values } = parseArgs({ args, options: { limit: { type: "string", default: "20" } } });
  const orm = await openDatabase(config);
  try {
    const rows = await orm.em
      .fork()
      .getConnection()
      .execute(
        `select created_at, to_email, subject, status, body_text from "email_outbox" order by sid desc limit ?`,
        [Number(values.limit)],
      );
    for (const row of rows)
      console.log(
        `${new Date(row.created_at).toISOString()} ${row.status} to ${row.to_email}: ${row.subject}\n${row.body_text}\n`,
      );
    if (rows.length === 0) console.log("the outbox is empty");
    return 0;
  } finally {
    await closeOrm(orm);
  }
}
