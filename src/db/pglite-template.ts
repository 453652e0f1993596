/**
 * The PGlite template that tools/build.mjs writes into dist/ (bundled there as dist/pglite-template.js): a data
 * directory with every migration applied. `openOrm` copies it into a fresh data directory instead of running
 * initdb and every migration there (most of a first start's time, and initdb's memory).
 */
import { renameSync, rmSync } from "node:fs";
import { ENTITIES } from "../../generated/entities.ts";
import { closeOrm, migrate, openOrm, PGLITE_TEMPLATE } from "./orm.ts";

export async function writePgliteTemplate(): Promise<void> {
  // Built beside its final place, then renamed: `openOrm` never copies a half-made template.
  const building = `${PGLITE_TEMPLATE}.building`;
  rmSync(building, { recursive: true, force: true });
  const orm = await openOrm({ entities: ENTITIES, pgliteDir: building });
  try {
    await migrate(orm);
  } finally {
    await closeOrm(orm);
  }
  rmSync(PGLITE_TEMPLATE, { recursive: true, force: true });
  renameSync(building, PGLITE_TEMPLATE);
}
