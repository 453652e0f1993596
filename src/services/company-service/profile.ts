import type { CompanyServiceHandlers } from "../../../generated/handlers/index.ts";
import { executorsRefusal, profileChanges } from "../../domain/company-profile.ts";
import { isCoopType } from "../../domain/company-registration.ts";
import { isRefusal, refuse } from "../../domain/refusal.ts";
import { deleteUnstartedCompany, updateCompanyProfile } from "../../repos/companies.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { companyError, refused, toCompanyResult } from "./common.ts";

type Handlers = CompanyServiceHandlers<RpcContext>;

/**
 * x-target founder with `operable: "update_profile"` (the dispatcher: the owner counts as founder; not suspended,
 * not voided). Profile fields only (a cooperative's due_process_executors among them); the write is conditional on
 * the status the dispatcher read.
 */
export const update: Handlers["update"] = async (ctx, { company_id, data }) => {
  const row = ctx.target.row;
  const { due_process_executors: executors, ...profile } = data;
  const notCoop = executorsRefusal(isCoopType(row.company_type), executors);
  if (notCoop) throw refused(notCoop);
  const checked = profileChanges(profile);
  if (isRefusal(checked)) throw refused(checked);
  const changes = executors === undefined ? checked : { ...checked, due_process_executors: executors };
  const now = ctx.now();
  if (!(await updateCompanyProfile(ctx.em, company_id, row.status, changes, now))) {
    throw companyError("InvalidState", "the company changed meanwhile; read it again");
  }
  return toCompanyResult({ ...row, ...changes, updated_at: now }, now);
};

const DELETABLE = ["draft", "pending_signatures"];

/**
 * company:founder. Only a company that never became active (draft or pending_signatures, no subscription started)
 * and whose roles have not started yet; a started role is kept history, and an ever-active company is voided by an
 * administrator instead.
 */
export const remove: Handlers["delete"] = async (ctx, { company_id }) => {
  const row = ctx.target.row;
  if (!DELETABLE.includes(row.status)) {
    throw refused(
      refuse("InvalidState", "only a company that never became active can be deleted; an administrator voids it", {
        status: row.status,
      }),
    );
  }
  if (!(await deleteUnstartedCompany(ctx.em, company_id, ctx.now()))) {
    throw companyError("InvalidState", "the company has started roles or changed meanwhile; it cannot be deleted", {
      status: row.status,
    });
  }
  return { sid: row.sid, deleted: true };
};
