import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../generated/entities.ts";

/** What the treasury needs to know about an owning company (the company services own the table). */
export function companyForTreasury(
  em: EntityManager,
  companyId: string,
): Promise<Pick<ZoneCompanyRow, "user_id" | "partner_id" | "status"> | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { company_id: companyId },
    { fields: ["user_id", "partner_id", "status"], disableIdentityMap: true },
  );
}
