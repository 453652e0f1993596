/**
 * How long the server waits on PostgreSQL before it gives up on a call (issue 31 items 2 and 3), each a setting in
 * milliseconds (0 turns a server-side timeout off). A call that meets one answers `-32011 DatabaseBusy` or
 * `DatabaseUnavailable` (retryable, src/rpc/unexpected-error.ts) and its transaction rolls back.
 * PGlite has one connection inside the process: no lock can be held by another session, so only the write-slot and
 * shutdown settings apply there.
 */
export interface DatabaseTimeouts {
  /** DB_STATEMENT_TIMEOUT_MS (30000): the longest one statement may run (PostgreSQL `statement_timeout`). */
  statementMs: number;
  /** DB_LOCK_TIMEOUT_MS (5000): the longest a statement waits for a row or table lock (`lock_timeout`). */
  lockMs: number;
  /** DB_IDLE_IN_TRANSACTION_TIMEOUT_MS (60000): a session idle inside a transaction is ended by the server. */
  idleInTransactionMs: number;
  /** DB_WRITE_SLOT_WAIT_MS (10000): the longest a call waits for one of the pool's write slots. */
  writeSlotWaitMs: number;
  /** DB_CONNECT_TIMEOUT_MS (5000): opening a connection, and the pool's wait for a free one (x2). */
  connectMs: number;
  /** DB_KEEPALIVE_MS (10000): TCP keepalive on every connection, so a silent peer is noticed. */
  keepAliveMs: number;
}

/** The defaults of the settings above (src/config.ts reads them from the environment). */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = {
  statementMs: 30_000,
  lockMs: 5_000,
  idleInTransactionMs: 60_000,
  writeSlotWaitMs: 10_000,
  connectMs: 5_000,
  keepAliveMs: 10_000,
};

/** The node-postgres connection settings of these timeouts (merged into knex's `connection`). */
export function pgConnectionSettings(t: DatabaseTimeouts): Record<string, unknown> {
  // A silent connection (TCP up, no bytes) answers nothing: the client-side query timeout ends the wait a little
  // after the server's own statement timeout would have (by the statement timeout again, at most 5 s more).
  const queryTimeout = t.statementMs > 0 ? t.statementMs + Math.min(t.statementMs, 5_000) : 0;
  return {
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveMs,
    connectionTimeoutMillis: t.connectMs,
    ...(t.statementMs > 0 ? { statement_timeout: t.statementMs } : {}),
    ...(t.lockMs > 0 ? { lock_timeout: t.lockMs } : {}),
    ...(t.idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: t.idleInTransactionMs } : {}),
    ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
  };
}
