import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { FrontendErrorEntity, type FrontendErrorRow } from "../../generated/entities.ts";

/** The FrontendError table: error reports from the web front end, append-only. */

export function insertFrontendError(em: EntityManager, row: RequiredEntityData<FrontendErrorRow>): FrontendErrorRow {
  return em.create(FrontendErrorEntity, row);
}
