import type { CallReply, Client, TestApp } from "../support/app.ts";
import { refusedNoWrite, sql } from "../support/helpers.ts";

/** The statuses the guard tests refuse (besides `inactive`, tested with the lapse sweep). */
export const BLOCKED = ["voided", "suspended"] as const;

/** Sets a company's stored status straight in the database (the operations that move it are tested apart). */
export async function setStatus(t: TestApp, companyId: string, status: string): Promise<void> {
  await sql(t, `update "zone_company" set status = ? where company_id = ?`, [status, companyId]);
}

/** The call is refused InvalidState (-32005) of `type` naming `status`, and `writes` reads the same after. */
export async function refusedByStatus(
  writes: () => Promise<unknown>,
  call: () => Promise<CallReply<unknown>>,
  type: string,
  status: string,
): Promise<void> {
  await refusedNoWrite(writes, call, -32005, { type, variant: "InvalidState", status } as never);
}

export type { Client, TestApp };
