import type { ShareholderInviteRow } from "../../../generated/entities.ts";
import type { ShareholderServiceHandlers } from "../../../generated/handlers/index.ts";
import type { InviteResult } from "../../../generated/types.ts";
import { newToken, sha256Hex } from "../../auth/tokens.ts";
import { isCoopType } from "../../domain/company-registration.ts";
import { companyStatusRefusal } from "../../domain/company-status.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { answerRefusal, invitedRole, inviteExpiry, inviteInput, issueUnits } from "../../domain/shareholder-invites.ts";
import { sendEmail } from "../../integrations/email/index.ts";
import { type CompanyHead, findCompanyHead } from "../../repos/companies.ts";
import { openRole, rolesOfSubjectAt } from "../../repos/company-roles.ts";
import { findResident, ownedResidentIdsOf } from "../../repos/digital-residents.ts";
import { lockCapTable, writeCapTable } from "../../repos/share-transfers.ts";
import * as invites from "../../repos/shareholder-invites.ts";
import { findUserById } from "../../repos/users.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { shareholderInviteEmail } from "./invites-email.ts";

/**
 * Shareholder invitations (issue 17, docs/decisions.md "Directors, signing authority and shareholder invitations
 * (issue 17)"). A director invites an email to take up new units; the one-time token is emailed through the outbox
 * and stored only as its SHA-256 hash. The invitee (signed in with that verified email) accepts, binding a resident
 * it owns (the units are issued to it: shareholder data plus a shareholder CompanyRole row), or rejects. Expiry:
 * past expires_at an invitation is expired for every reader (accept/reject answer Expired and write nothing,
 * list_invites omits it); the stored status becomes `expired` when a new invitation for the same company and email
 * is issued.
 */

type Handlers = ShareholderServiceHandlers<RpcContext>;

const shareholderError = errorsFor("ShareholderService", "ShareholderError");

/** Token prefix of shareholder invitations. */
const INVITE_TOKEN_PREFIX = "fzi_";
const LIST_LIMIT = 500;

/**
 * accept_invite's company status guard. The invitation is named by its token, stored only as a hash, and
 * `x-target` matches a param to a field as given: it cannot load a ShareholderInvite by sha256(invite_token), so
 * this one status check stays here (invite_shareholder's is the dispatcher's, x-target operable).
 */
async function requireInviteCompanyOperable(ctx: RpcContext, companyId: string): Promise<CompanyHead> {
  const company = await findCompanyHead(ctx.em, companyId);
  if (!company) throw shareholderError.notFound("company");
  const refusal = companyStatusRefusal(company.status, "operate");
  if (refusal) throw shareholderError(refusal.refusal, refusal.message, refusal.details);
  return company;
}

function toInviteResult(row: ShareholderInviteRow): InviteResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    inviter_id: row.inviter_id,
    invitee_email: row.invitee_email,
    proposed_units: row.proposed_units,
    message: row.message,
    status: row.status,
    resident_id: row.resident_id,
    expires_at: row.expires_at.toISOString(),
    responded_at: row.responded_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** The invitation the token names, answerable by the caller now; refusals write nothing. */
async function loadAnswerable(ctx: RpcContext, token: string): Promise<ShareholderInviteRow> {
  const caller = requireCaller(ctx);
  const row = await invites.findInviteByTokenHash(ctx.em, sha256Hex(token));
  if (!row) throw shareholderError.notFound("invite");
  const user = await findUserById(ctx.em, caller.userId);
  const refusal = answerRefusal(
    row,
    { email: user?.email ?? "", emailVerified: user?.email_verified ?? false },
    ctx.now(),
  );
  if (refusal) throw shareholderError(refusal.refusal, refusal.message, refusal.details);
  return row;
}

export const inviteShareholder: Handlers["inviteShareholder"] = async (ctx, p) => {
  const company = ctx.target.row;
  const input = inviteInput(p, isCoopType(company.company_type));
  if (isRefusal(input)) throw shareholderError(input.refusal, input.message, input.details);
  const now = ctx.now();
  await invites.expireStaleInvites(ctx.em, p.company_id, input.email, now);
  const token = newToken(INVITE_TOKEN_PREFIX);
  const row = await invites.insertInvite(
    ctx.em,
    {
      companyId: p.company_id,
      inviterId: p.inviter_id,
      email: input.email,
      units: input.units,
      message: input.message,
      tokenHash: sha256Hex(token),
      expiresAt: inviteExpiry(now),
    },
    now,
  );
  if (!row) throw shareholderError("AlreadyExists", "an invitation to this email is already pending");
  await sendEmail(
    ctx,
    "ShareholderError",
    shareholderInviteEmail({
      to: row.invitee_email,
      companyName: company.name,
      units: row.proposed_units,
      message: row.message,
      token,
      expiresAt: row.expires_at,
      baseUrl: ctx.config.publicBaseUrl,
    }),
  );
  return toInviteResult(row);
};

export const acceptInvite: Handlers["acceptInvite"] = async (ctx, p) => {
  const caller = requireCaller(ctx);
  const row = await loadAnswerable(ctx, p.invite_token);
  if (!(await ownedResidentIdsOf(ctx.em, caller)).includes(p.resident_id))
    throw shareholderError("Forbidden", "resident_id must be a resident the caller owns");
  const company = await requireInviteCompanyOperable(ctx, row.company_id);
  const role = invitedRole(isCoopType(company.company_type));
  const resident = await findResident(ctx.em, p.resident_id);
  if (!resident) throw shareholderError.notFound("resident");
  const now = ctx.now();
  if (!(await invites.answerInvite(ctx.em, row.sid, { status: "accepted", residentId: p.resident_id }, now)))
    throw shareholderError("AlreadyUsed", "the invitation was answered meanwhile");
  const table = await lockCapTable(ctx.em, row.company_id);
  if (!table) throw shareholderError.notFound("company");
  const holder = {
    residentId: p.resident_id,
    name: `${resident.first_name} ${resident.last_name}`.trim(),
    email: row.invitee_email,
  };
  const issued = issueUnits(table, holder, row.proposed_units, role);
  if (isRefusal(issued)) throw shareholderError(issued.refusal, issued.message, issued.details);
  await writeCapTable(ctx.em, row.company_id, issued, now);
  const held = (await rolesOfSubjectAt(ctx.em, p.resident_id, now)).find(
    (r) => r.company_id === row.company_id && r.role === role,
  );
  const opened =
    held ??
    (await openRole(ctx.em, {
      companyId: row.company_id,
      subjectId: p.resident_id,
      role,
      classificationScope: [role],
      validFrom: now,
      createdBy: p.resident_id,
    }));
  return {
    invite_id: row.sid,
    company_id: row.company_id,
    resident_id: p.resident_id,
    units: row.proposed_units,
    status: "accepted",
    role_id: opened.sid,
    accepted_at: now.toISOString(),
  };
};

export const rejectInvite: Handlers["rejectInvite"] = async (ctx, p) => {
  const row = await loadAnswerable(ctx, p.invite_token);
  const now = ctx.now();
  if (!(await invites.answerInvite(ctx.em, row.sid, { status: "rejected", residentId: null }, now)))
    throw shareholderError("AlreadyUsed", "the invitation was answered meanwhile");
  return { invite_id: row.sid, company_id: row.company_id, status: "rejected", responded_at: now.toISOString() };
};

export const listInvites: Handlers["listInvites"] = async (ctx, p) => {
  const rows = await invites.pendingInvites(ctx.em, p.company_id, ctx.now(), LIST_LIMIT);
  return { items: rows.map(toInviteResult) };
};
