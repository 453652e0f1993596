import pg from "pg";

/**
 * Each `npm test` run on PostgreSQL works in schemas of its own (`t<run>_w<worker>...`), so two runs on one
 * server (two checkouts, CI beside a developer) never truncate each other's rows. The run id is set in
 * vitest.config.ts; this teardown drops the run's schemas at the end.
 */
export async function teardown(): Promise<void> {
  const url = process.env["DATABASE_URL"];
  const run = process.env["FZ_TEST_RUN"];
  if (!url || !run) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like $1", [
      `t${run}\\_%`,
    ]);
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
