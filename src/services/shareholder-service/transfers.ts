import type { ShareTransferRow } from "../../../generated/entities.ts";
import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import { roleWriter } from "../../domain/company-roles.ts";
import { parseSignature, verifyEd25519 } from "../../domain/ed25519.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import {
  commitRefusal,
  moveUnits,
  type TransferAction,
  transferHash,
  transferInput,
  transferMoveFrom,
  transferMoveRefusal,
  transferMoveTo,
  unitsHeld,
} from "../../domain/share-transfers.ts";
import { closeRole, openRole } from "../../repos/company-roles.ts";
import { findEntityKeys } from "../../repos/entity-keys.ts";
import * as repo from "../../repos/share-transfers.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { actsAs, isMemberOf, recordIfAdmin, refused, shareholderError, toTransferResult } from "./common.ts";
import { actsForHolder, findHolder, requireRecipientHolder } from "./holders.ts";

type Handlers = ShareholderServiceHandlers<RpcContext>;

/*
 * Share transfers (issue 17; docs/decisions.md "Share transfers and dividends"). pending (initiate) -> approved
 * (the recipient's Ed25519 signature over transfer_hash) -> completed (a director; units move in the cap table
 * under the company row's lock); pending or approved -> cancelled. `rejected` is not reached by these operations.
 * The dispatcher loads the transfer (`x-target` ShareTransfer), checks the company role and that the company
 * operates; the handlers read it as `ctx.target.row`.
 */

export const initiateTransfer: Handlers["initiateTransfer"] = async (ctx, p) => {
  const input = transferInput({ from: p.from_resident_id, to: p.to_resident_id, units: p.units, reason: p.reason });
  if (isRefusal(input)) throw refused(input);
  await requireRecipientHolder(ctx, p.to_resident_id, p.company_id);
  const table = await repo.lockCapTable(ctx.em, p.company_id);
  if (!table) throw shareholderError.notFound("company");
  const held = unitsHeld(table, p.from_resident_id);
  const short = commitRefusal(held, await repo.outstandingUnits(ctx.em, p.company_id, p.from_resident_id), input.units);
  if (short) throw refused(short);
  const now = ctx.now();
  const sid = uuidv7(now);
  const terms = {
    transfer_id: sid,
    company_id: p.company_id,
    from_resident_id: p.from_resident_id,
    to_resident_id: p.to_resident_id,
    units: input.units,
    reason: input.reason,
    created_at: now,
  };
  const { transfer_id: _id, ...fields } = terms;
  const row = await repo.insertTransfer(ctx.em, {
    ...fields,
    sid,
    status: "pending",
    transfer_hash: transferHash(terms),
    to_signature: null,
    approved_at: null,
    completed_at: null,
    cancelled_at: null,
    rejected_at: null,
    updated_at: now,
  });
  return toTransferResult(row);
};

/** The transfer's conditional move for `action` (from its states to its end state); InvalidState if it moved meanwhile. */
async function moveBy(
  ctx: RpcContext,
  sid: string,
  action: TransferAction,
  fields: Parameters<typeof repo.moveTransfer>[4],
  now: Date,
): Promise<ShareTransferRow> {
  const moved = await repo.moveTransfer(ctx.em, sid, transferMoveFrom(action), transferMoveTo(action), fields, now);
  if (!moved) throw shareholderError("InvalidState", "the transfer moved meanwhile");
  return moved;
}

/**
 * Only the recipient's owner (for a corporate recipient: its directors) countersigns or declines. Visibility, not a
 * role rule: the recipient is usually outside the company. Members and the giver see the transfer (NotOwner);
 * anyone else does not (NotFound).
 */
async function requireRecipient(ctx: RpcContext, row: ShareTransferRow): Promise<void> {
  if (await actsForHolder(ctx, row.to_resident_id)) return;
  const sees = (await isMemberOf(ctx, row.company_id)) || (await actsAs(ctx, row.from_resident_id));
  if (!sees) throw shareholderError.notFound("transfer");
  throw shareholderError("NotOwner", "only the owner of the recipient resident countersigns or declines");
}

export const approveTransfer: Handlers["approveTransfer"] = async (ctx, p) => {
  const row = ctx.target.row;
  await requireRecipient(ctx, row);
  const bad = transferMoveRefusal(row.status, "approve");
  if (bad) throw refused(bad);
  const signature = parseSignature(p.to_signature, "to_signature");
  if (isRefusal(signature)) throw shareholderError("InvalidSignature", signature.message, signature.details);
  const recipient = await findHolder(ctx, row.to_resident_id);
  const keys = recipient ? await findEntityKeys(ctx.em, recipient.keyType, row.to_resident_id) : null;
  if (!keys?.public_key) {
    throw shareholderError("InvalidSignature", "the recipient has no public key to verify with", {
      reason: "no_public_key",
    });
  }
  const verdict = verifyEd25519(
    Uint8Array.from(Buffer.from(keys.public_key, "hex")),
    Uint8Array.from(Buffer.from(row.transfer_hash, "hex")),
    signature,
  );
  if (!verdict.valid) {
    throw shareholderError("InvalidSignature", "to_signature does not verify with the recipient's current key", {
      reason: verdict.reason,
      keypair_version: keys.keypair_version,
    });
  }
  const now = ctx.now();
  const moved = await moveBy(ctx, row.sid, "approve", { to_signature: p.to_signature, approved_at: now }, now);
  return toTransferResult(moved);
};

export const completeTransfer: Handlers["completeTransfer"] = async (ctx) => {
  const row = ctx.target.row;
  const bad = transferMoveRefusal(row.status, "complete");
  if (bad) throw refused(bad);
  const table = await repo.lockCapTable(ctx.em, row.company_id);
  if (!table) throw shareholderError.notFound("company");
  const now = ctx.now();
  // Under the company's lock: of concurrent completions each sees the units the previous one left.
  const moved = await moveBy(ctx, row.sid, "complete", { completed_at: now }, now);
  const recipient = await findHolder(ctx, row.to_resident_id);
  const name = recipient?.name ?? row.to_resident_id;
  const move = moveUnits(
    table,
    row.from_resident_id,
    { resident_id: row.to_resident_id, name, email: recipient?.email ?? "" },
    row.units,
  );
  if (isRefusal(move)) throw refused(move);
  await repo.writeCapTable(ctx.em, row.company_id, move.table, now);
  const createdBy = roleWriter(isAdminSession(requireCaller(ctx)) ? null : row.from_resident_id, row.company_id);
  if (!(await repo.openRoleOf(ctx.em, row.company_id, row.to_resident_id, "shareholder", now))) {
    await openRole(ctx.em, {
      companyId: row.company_id,
      subjectId: row.to_resident_id,
      role: "shareholder",
      classificationScope: ["shareholder"],
      validFrom: now,
      createdBy,
    });
  }
  if (move.giverLeft === 0) {
    const giverRole = await repo.openRoleOf(ctx.em, row.company_id, row.from_resident_id, "shareholder", now);
    if (giverRole) await closeRole(ctx.em, giverRole.sid, now);
  }
  recordIfAdmin(ctx, "complete_share_transfer", row.company_id, { transfer_id: row.sid, units: row.units });
  return toTransferResult(moved);
};

/** The recipient declines a pending transfer (issue 30): `rejected`, the units never move. */
export const rejectTransfer: Handlers["rejectTransfer"] = async (ctx) => {
  const row = ctx.target.row;
  await requireRecipient(ctx, row);
  const bad = transferMoveRefusal(row.status, "reject");
  if (bad) throw refused(bad);
  const now = ctx.now();
  const moved = await moveBy(ctx, row.sid, "reject", { rejected_at: now }, now);
  return toTransferResult(moved);
};

export const cancelTransfer: Handlers["cancelTransfer"] = async (ctx) => {
  // The dispatcher let through the giver or a director (x-target role director, party from_resident_id).
  const row = ctx.target.row;
  const giver = await actsAs(ctx, row.from_resident_id);
  const bad = transferMoveRefusal(row.status, "cancel");
  if (bad) throw refused(bad);
  const now = ctx.now();
  const moved = await moveBy(ctx, row.sid, "cancel", { cancelled_at: now }, now);
  if (!giver) recordIfAdmin(ctx, "cancel_share_transfer", row.company_id, { transfer_id: row.sid });
  return toTransferResult(moved);
};

export const listTransfers: Handlers["listTransfers"] = async (ctx, p) => {
  const rows = await repo.listTransfers(ctx.em, p.company_id, p.status);
  return { items: rows.map(toTransferResult) };
};
