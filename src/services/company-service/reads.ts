import type { CompanyServiceHandlers } from "../../../generated/handlers/index.ts";
import { companyRoles } from "../../auth/access.ts";
import { companyCard } from "../../domain/company-card.ts";
import { findCompany, listOwnedCompanies } from "../../repos/companies.ts";
import { MAX_PAGE_SIZE, pageWindow, toPage } from "../../repos/paging.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { companyError, toCompanyResult } from "./common.ts";

type Handlers = CompanyServiceHandlers<RpcContext>;

/** The caller's companies by the owner pair, voided included, newest first. */
export const list: Handlers["list"] = async (ctx, { page, page_size }) => {
  if (page < 1) throw companyError("InvalidInput", "page starts at 1", { field: "page" });
  if (page_size < 0 || page_size > MAX_PAGE_SIZE) {
    throw companyError("InvalidInput", `page_size is 1 to ${MAX_PAGE_SIZE} (0 means the default)`, {
      field: "page_size",
    });
  }
  const window = pageWindow({ page, page_size });
  const { rows, total } = await listOwnedCompanies(ctx.em, requireCaller(ctx), {
    offset: window.offset,
    limit: window.pageSize,
  });
  const now = ctx.now();
  return toPage(
    rows.map((r) => toCompanyResult(r, now)),
    total,
    window,
  );
};

/** company:member (the dispatcher): any status, voided ones with their void fields. */
export const get: Handlers["get"] = async (ctx) => toCompanyResult(ctx.target.row, ctx.now());

/**
 * Any signed-in caller; anonymity masks the identifying fields for callers holding no role (domain/company-card.ts).
 * The role lookup is not authorization: every caller gets the card, the role only decides how much of it they see.
 */
export const getCard: Handlers["getCard"] = async (ctx, { company_id }) => {
  const caller = requireCaller(ctx);
  const row = await findCompany(ctx.em, company_id);
  if (!row) throw companyError.notFound("company");
  const now = ctx.now();
  const inside = isAdminSession(caller) || ((await companyRoles(ctx.em, caller, company_id, now)) ?? []).length > 0;
  return companyCard(row, inside, now);
};

/** company:member (the dispatcher). */
export const getKeyStatus: Handlers["getKeyStatus"] = async (ctx) => {
  const row = ctx.target.row;
  return {
    entity_type: "company",
    entity_id: row.company_id,
    has_keypair: row.public_key !== null,
    public_key: row.public_key,
    keypair_version: row.keypair_version,
    has_encrypted_private_key: row.encrypted_private_key !== null,
  };
};
