import type { EntityManager } from "@mikro-orm/postgresql";
import { ConfigError } from "../config.ts";
import { sqlRows } from "../db/sql.ts";
import { planContractSync, planTemplateCatalogue } from "../domain/contract-sync.ts";
import * as catalogue from "../repos/contract-catalogue.ts";
import type { TemplateCatalogue } from "./templates.ts";

/**
 * Writes the template files into the tables at start (docs/decisions.md "Contracts"): new versions are inserted and
 * made active, older versions stay (inactive) for the signatures that name them, templates whose file is gone are
 * deactivated; the ContractTemplate catalogue follows the files. One transaction under an advisory lock, so
 * instances starting together apply it once; a version whose text changed without a new label stops the start.
 */

export interface SyncReport {
  inserted: string[];
  activated: number;
  deactivated: number;
  refreshed: number;
  catalogue: { inserted: number; updated: number; removed: number };
}

const SYNC_LOCK = "contract_template_sync";

export function syncContractTemplates(em: EntityManager, files: TemplateCatalogue, now: Date): Promise<SyncReport> {
  return em.fork().transactional(async (tx) => {
    await sqlRows(tx, "select pg_advisory_xact_lock(hashtext(?))", [SYNC_LOCK]);
    const plan = planContractSync(files.all, await catalogue.storedContracts(tx));
    if (plan.conflicts.length > 0) throw new ConfigError("contracts/templates", plan.conflicts.join("; "));
    // Deactivate first: one active version per key is a partial unique index.
    const deactivated = await catalogue.setContractsActive(tx, plan.deactivate, false, now);
    const activated = await catalogue.setContractsActive(tx, plan.activate, true, now);
    for (const t of plan.insert) await catalogue.insertContractVersion(tx, t, now);
    for (const r of plan.refresh) await catalogue.refreshContractHeader(tx, r.sid, r.template, now);

    const templates = planTemplateCatalogue(files.all, await catalogue.storedTemplates(tx));
    for (const fields of templates.insert) await catalogue.insertTemplate(tx, fields, now);
    for (const u of templates.update) await catalogue.updateTemplate(tx, u.sid, u.fields, now);
    await catalogue.removeTemplates(tx, templates.remove);
    return {
      inserted: plan.insert.map((t) => `${t.key}@${t.version}`),
      activated,
      deactivated,
      refreshed: plan.refresh.length,
      catalogue: {
        inserted: templates.insert.length,
        updated: templates.update.length,
        removed: templates.remove.length,
      },
    };
  });
}
