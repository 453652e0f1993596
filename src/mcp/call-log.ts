import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { uuidv7 } from "../domain/ids.ts";

export type CallStatus = "success" | "error" | "rejected";

export interface CallLogEntry {
  apiKeyId: string;
  userId: string;
  toolName: string;
  argumentsSummary: string;
  amount: number;
  amountEur: number | null;
  status: CallStatus;
  errorMessage: string;
  approvalId: string | null;
  at: Date;
}

const COLUMNS =
  "sid, api_key_id, user_id, tool_name, arguments_summary, amount, result_status, error_message, created_at, amount_eur, approval_id, updated_at";
const ROW = `(${COLUMNS.split(",")
  .map(() => "?")
  .join(", ")})`;
const BATCH = 200;

interface Queued {
  entry: CallLogEntry;
  done(error?: unknown): void;
}

/**
 * Writes McpCallLog rows with group commit: a call waits until its row is stored before it is answered, and rows
 * that arrive while one insert runs go together in the next multi-row insert, so the log costs one statement per
 * batch instead of one per call under load.
 */
export class CallLogWriter {
  private queue: Queued[] = [];
  private running = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Logger,
  ) {}

  /** Stores the row before resolving; with `within` (a call inside another's transaction) as part of it. */
  write(within: EntityManager | null, entry: CallLogEntry): Promise<void> {
    if (within) return this.insert(within, [entry]);
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH);
        try {
          await this.insert(
            this.orm.em.fork(),
            batch.map((q) => q.entry),
          );
          for (const q of batch) q.done();
        } catch (error) {
          this.log.error({ err: error, rows: batch.length }, "MCP call log write failed");
          for (const q of batch) q.done(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async insert(em: EntityManager, entries: CallLogEntry[]): Promise<void> {
    const params: unknown[] = [];
    for (const e of entries) {
      params.push(uuidv7(e.at), e.apiKeyId, e.userId, e.toolName, e.argumentsSummary, e.amount, e.status);
      params.push(e.errorMessage, e.at, e.amountEur, e.approvalId, e.at);
    }
    const values = entries.map(() => ROW).join(", ");
    await em.execute(`insert into mcp_call_log (${COLUMNS}) values ${values}`, params, "run");
  }
}
