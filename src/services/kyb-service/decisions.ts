import type { ExternalCompanyRegistrationRow } from "../../../generated/entities.ts";
import type { KybServiceHandlers } from "../../../generated/handlers/index.ts";
import { hardGateRefusal, kybMoveSources, nextKybStatus } from "../../domain/kyb.ts";
import { isRefusal } from "../../domain/refusal.ts";
import * as registrations from "../../repos/external-companies.ts";
import { findUserById } from "../../repos/users.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { grantProxy } from "../proxy-service.ts";
import { createResident } from "../shared/new-resident.ts";
import { kybError, loadRegistration, toRegistrationResult } from "./common.ts";

/**
 * KybService, the administrator's decisions. Approval links the external-company resident (created, or an existing
 * one named by resident_id) and gives the submitter's resident an open-ended admin_proxy Proxy for it.
 */

type Handlers = KybServiceHandlers<RpcContext>;

/** The resident to link: an existing external_company resident no registration links yet, or a new one. */
async function residentToLink(
  ctx: RpcContext,
  row: ExternalCompanyRegistrationRow,
  residentId: string | undefined,
): Promise<{ residentId: string; created: boolean }> {
  if (residentId !== undefined) {
    const existing = await registrations.residentById(ctx.em, residentId);
    if (!existing) throw kybError.notFound("resident");
    if (existing.resident_type !== "external_company") {
      throw kybError("InvalidInput", "resident_id must name an external_company resident", { field: "resident_id" });
    }
    if (await registrations.residentLinked(ctx.em, residentId)) {
      throw kybError("InvalidInput", "another registration links this resident", { field: "resident_id" });
    }
    return { residentId, created: false };
  }
  const submitter = await findUserById(ctx.em, row.user_id);
  const resident = await createResident(ctx, {
    user_id: null,
    partner_id: null,
    email: submitter?.email ?? "",
    first_name: row.legal_name,
    last_name: "",
    resident_type: "external_company",
    source: "admin",
  });
  return { residentId: resident.resident_id, created: true };
}

export const approve: Handlers["approve"] = async (ctx, p) => {
  const row = await loadRegistration(ctx, p.registration_id);
  const next = nextKybStatus(row.kyb_status, "approve");
  if (isRefusal(next)) throw kybError(next.refusal, next.message, next.details);
  const gate = hardGateRefusal(row, ctx.config.kybHardGate);
  if (gate) throw kybError(gate.refusal, gate.message, gate.details);
  const linked = await residentToLink(ctx, row, p.resident_id);
  const now = ctx.now();
  const email = requireCaller(ctx).email;
  const changes = { kyb_status: next, approved_by: email, linked_dr_id: linked.residentId, updated_at: now };
  if ((await registrations.moveRegistration(ctx.em, row.sid, kybMoveSources("approve"), changes)) === 0) {
    throw kybError("InvalidState", "the registration was decided meanwhile; read it again");
  }
  const proxy = await grantProxy(ctx, {
    principal: row.submitter_dr_id,
    target: linked.residentId,
    role: "admin_proxy",
    validFrom: now,
    validTo: null,
  });
  // An existing, still active admin_proxy (a linked resident the submitter acts for already) is kept as it is.
  if (isRefusal(proxy) && proxy.refusal !== "AlreadyExists") {
    throw kybError("InvalidState", `the submitter cannot be given a proxy: ${proxy.message}`);
  }
  recordAdminAction(ctx, {
    action: "approve_kyb",
    targetType: "external_company_registration",
    targetId: row.sid,
    details: {
      linked_dr_id: linked.residentId,
      resident_created: linked.created,
      proxy_id: isRefusal(proxy) ? (proxy.details?.["proxy_id"] ?? null) : proxy.sid,
      kyb_provider_status: row.kyb_provider_status,
      note: p.note ?? null,
    },
  });
  return toRegistrationResult({ ...row, ...changes });
};

export const reject: Handlers["reject"] = async (ctx, p) => {
  const row = await loadRegistration(ctx, p.registration_id);
  const next = nextKybStatus(row.kyb_status, "reject");
  if (isRefusal(next)) throw kybError(next.refusal, next.message, next.details);
  const reason = p.reason.trim();
  if (reason.length === 0) throw kybError("InvalidInput", "reason must not be blank", { field: "reason" });
  const changes = { kyb_status: next, rejection_reason: reason, updated_at: ctx.now() };
  if ((await registrations.moveRegistration(ctx.em, row.sid, kybMoveSources("reject"), changes)) === 0) {
    throw kybError("InvalidState", "the registration was decided meanwhile; read it again");
  }
  recordAdminAction(ctx, {
    action: "reject_kyb",
    targetType: "external_company_registration",
    targetId: row.sid,
    details: { reason },
  });
  return toRegistrationResult({ ...row, ...changes });
};
