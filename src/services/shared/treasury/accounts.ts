import type { TreasuryAccountRow } from "../../../../generated/entities.ts";
import type {
  CreateTreasuryAccountData,
  EntityType,
  TreasuryAccountResult,
  UpdateTreasuryAccountData,
} from "../../../../generated/types.ts";
import { uuidv7 } from "../../../domain/ids.ts";
import { isRefusal, type Refusal } from "../../../domain/refusal.ts";
import { accountChanges, accountFields, deactivationRefusal, TREASURY_LIST_LIMIT } from "../../../domain/treasury.ts";
import { requireCompanyOperable } from "../../../repos/companies.ts";
import { findResident } from "../../../repos/digital-residents.ts";
import * as accounts from "../../../repos/treasury-accounts.ts";
import { listLedger, lockAccounts } from "../../../repos/treasury-ledger.ts";
import { openTransferCount } from "../../../repos/treasury-transfers.ts";
import { recordAdminAction } from "../../../rpc/admin-actions.ts";
import { requireCaller } from "../../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../../rpc/context.ts";
import { errorsFor } from "../../../rpc/service-errors.ts";
import { toAccountResult, toTransactionResult } from "./mappers.ts";
import { standingTowards } from "./standing.ts";

/*
 * TreasuryService accounts (issue 15): create, read, change accounts of a company or a resident. The dispatcher
 * checked the company role (company_id methods) or that the caller may act as the resident (resident_id methods);
 * resident accounts are created and changed by the resident's owner only. Balances are never set here: they move
 * through treasury transactions (src/repos/treasury-ledger.ts).
 */

export const treasuryError = errorsFor("TreasuryService", "TreasuryError");

type AccountRefusal = Refusal<"InvalidInput" | "InvalidState" | "AlreadyExists">;
const refused = (r: AccountRefusal) => treasuryError(r.refusal, r.message, r.details);

export async function loadOwned(
  ctx: RpcContext,
  ownerType: EntityType,
  ownerId: string,
  accountId: string,
): Promise<TreasuryAccountRow> {
  const row = await accounts.findOwnedAccount(ctx.em, ownerType, ownerId, accountId);
  if (!row) throw treasuryError.notFound("account");
  return row;
}

/** The company status guard (src/domain/company-status.ts): only a company that may operate changes its accounts. */
export function requireOperableCompany(ctx: RpcContext, companyId: string): Promise<void> {
  return requireCompanyOperable(ctx.em, companyId, (r) => treasuryError(r.refusal, r.message, r.details));
}

/** Creating and changing a resident's accounts is for its owner: a proxy holder only reads them. */
async function requireResidentManager(ctx: RpcContext, residentId: string) {
  const resident = await findResident(ctx.em, residentId);
  if (!resident) throw treasuryError.notFound("resident");
  if (!(await standingTowards(ctx, "resident", residentId)).manage) {
    throw treasuryError("Forbidden", "only the resident's owner may create or change its accounts");
  }
  return resident;
}

function recordIfAdmin(ctx: RpcContext, action: string, row: TreasuryAccountRow, details: Record<string, unknown>) {
  if (!isAdminSession(requireCaller(ctx))) return;
  recordAdminAction(ctx, {
    action,
    targetType: "treasury_account",
    targetId: row.sid,
    details: { owner_type: row.owner_type, owner_id: row.owner_id, ...details },
  });
}

export async function createAccount(
  ctx: RpcContext,
  ownerType: EntityType,
  ownerId: string,
  data: CreateTreasuryAccountData,
): Promise<TreasuryAccountResult> {
  const fields = accountFields(data);
  if (isRefusal(fields)) throw refused(fields as AccountRefusal);
  if (await accounts.nameTaken(ctx.em, ownerType, ownerId, fields.name, null)) {
    throw treasuryError("AlreadyExists", `an account named "${fields.name}" exists`, { field: "name" });
  }
  const now = ctx.now();
  const row = accounts.insertAccount(ctx.em, {
    sid: uuidv7(now),
    owner_type: ownerType,
    owner_id: ownerId,
    ...fields,
    balance: 0,
    pending_out: 0,
    is_active: true,
    created_at: now,
    updated_at: now,
  });
  recordIfAdmin(ctx, "create_treasury_account", row, { name: row.name, currency: row.currency });
  return toAccountResult(row);
}

export async function updateAccount(
  ctx: RpcContext,
  row: TreasuryAccountRow,
  data: UpdateTreasuryAccountData,
): Promise<TreasuryAccountResult> {
  const changes = accountChanges(data);
  if (isRefusal(changes)) throw refused(changes as AccountRefusal);
  if (
    changes.name !== undefined &&
    (await accounts.nameTaken(ctx.em, row.owner_type, row.owner_id, changes.name, row.sid))
  ) {
    throw treasuryError("AlreadyExists", `an account named "${changes.name}" exists`, { field: "name" });
  }
  if (changes.is_active === false && row.is_active) {
    // Under the row lock every transfer touching the account takes, so none opens between the count and the update.
    await lockAccounts(ctx.em, [row.sid]);
    const bad = deactivationRefusal(row.balance, row.pending_out, await openTransferCount(ctx.em, row.sid));
    if (bad) throw refused(bad);
  }
  const now = ctx.now();
  if (!(await accounts.updateAccount(ctx.em, row.sid, changes, now))) {
    throw treasuryError("InvalidState", "the account's balance changed meanwhile; it cannot be deactivated");
  }
  recordIfAdmin(ctx, "update_treasury_account", row, { fields: Object.keys(changes) });
  return toAccountResult({ ...row, ...changes, updated_at: now });
}

async function transactionsOf(ctx: RpcContext, row: TreasuryAccountRow) {
  return { items: (await listLedger(ctx.em, row.sid, TREASURY_LIST_LIMIT)).map(toTransactionResult) };
}

export const accountHandlers = {
  async listCompanyAccounts(ctx: RpcContext, { company_id }: { company_id: string }) {
    return { items: (await accounts.listAccounts(ctx.em, "company", company_id)).map(toAccountResult) };
  },

  async getCompanyAccount(ctx: RpcContext, { company_id, account_id }: { company_id: string; account_id: string }) {
    return toAccountResult(await loadOwned(ctx, "company", company_id, account_id));
  },

  async listCompanyTransactions(
    ctx: RpcContext,
    { company_id, account_id }: { company_id: string; account_id: string },
  ) {
    return transactionsOf(ctx, await loadOwned(ctx, "company", company_id, account_id));
  },

  async createCompanyAccount(
    ctx: RpcContext,
    { company_id, data }: { company_id: string; data: CreateTreasuryAccountData },
  ) {
    return createAccount(ctx, "company", company_id, data);
  },

  async updateCompanyAccount(
    ctx: RpcContext,
    { company_id, account_id, data }: { company_id: string; account_id: string; data: UpdateTreasuryAccountData },
  ) {
    const row = await loadOwned(ctx, "company", company_id, account_id);
    return updateAccount(ctx, row, data);
  },

  async listResidentAccounts(ctx: RpcContext, { resident_id }: { resident_id: string }) {
    return { items: (await accounts.listAccounts(ctx.em, "resident", resident_id)).map(toAccountResult) };
  },

  async getResidentAccount(ctx: RpcContext, { resident_id, account_id }: { resident_id: string; account_id: string }) {
    return toAccountResult(await loadOwned(ctx, "resident", resident_id, account_id));
  },

  async listResidentTransactions(
    ctx: RpcContext,
    { resident_id, account_id }: { resident_id: string; account_id: string },
  ) {
    return transactionsOf(ctx, await loadOwned(ctx, "resident", resident_id, account_id));
  },

  async createResidentAccount(
    ctx: RpcContext,
    { resident_id, data }: { resident_id: string; data: CreateTreasuryAccountData },
  ) {
    const resident = await requireResidentManager(ctx, resident_id);
    if (resident.status !== "active") {
      throw treasuryError(
        "InvalidState",
        `the resident is ${resident.status}: only an active resident opens accounts`,
        {
          status: resident.status,
        },
      );
    }
    return createAccount(ctx, "resident", resident_id, data);
  },

  async updateResidentAccount(
    ctx: RpcContext,
    { resident_id, account_id, data }: { resident_id: string; account_id: string; data: UpdateTreasuryAccountData },
  ) {
    const row = await loadOwned(ctx, "resident", resident_id, account_id);
    await requireResidentManager(ctx, resident_id);
    return updateAccount(ctx, row, data);
  },
};
