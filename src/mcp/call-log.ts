import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { McpCallResultStatus } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import { insertCallLogRows } from "../repos/mcp-call-log.ts";

export type CallStatus = McpCallResultStatus;

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

  private insert(em: EntityManager, entries: CallLogEntry[]): Promise<void> {
    return insertCallLogRows(
      em,
      entries.map((e) => ({
        sid: uuidv7(e.at),
        api_key_id: e.apiKeyId,
        user_id: e.userId,
        tool_name: e.toolName,
        arguments_summary: e.argumentsSummary,
        amount: e.amount,
        result_status: e.status,
        error_message: e.errorMessage,
        created_at: e.at,
        amount_eur: e.amountEur,
        approval_id: e.approvalId,
        updated_at: e.at,
      })),
    );
  }
}
