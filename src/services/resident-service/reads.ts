import type { ResidentServiceHandlers } from "../../../generated/handlers/index.ts";
import { findOwnResident, listOwnedResidents } from "../../repos/digital-residents.ts";
import { MAX_PAGE_SIZE, pageWindow, toPage } from "../../repos/paging.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { loadResident, residentError, toResidentCard, toResidentResult, toResidentSummary } from "./common.ts";

type Handlers = ResidentServiceHandlers<RpcContext>;

export const list: Handlers["list"] = async (ctx, { page, page_size }) => {
  if (page < 1) throw residentError("InvalidInput", "page starts at 1", { field: "page" });
  if (page_size < 0 || page_size > MAX_PAGE_SIZE) {
    throw residentError("InvalidInput", `page_size is 1 to ${MAX_PAGE_SIZE} (0 means the default)`, {
      field: "page_size",
    });
  }
  const window = pageWindow({ page, page_size });
  const { rows, total } = await listOwnedResidents(ctx.em, requireCaller(ctx), {
    offset: window.offset,
    limit: window.pageSize,
  });
  const now = ctx.now();
  return toPage(
    rows.map((r) => toResidentSummary(r, now)),
    total,
    window,
  );
};

export const get: Handlers["get"] = async (ctx, { resident_id }) => {
  return toResidentResult(await loadResident(ctx, resident_id, "see"), ctx.now());
};

export const getCard: Handlers["getCard"] = async (ctx) => {
  const row = await findOwnResident(ctx.em, requireCaller(ctx));
  if (!row) throw residentError.notFound("resident");
  return toResidentCard(row, ctx.now());
};
