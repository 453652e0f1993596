import { join } from "node:path";

/**
 * The repository root, for files read at run time (generated documents and manifest, contract templates). This
 * module lies one level below it (src/), and so does the compiled bundle that contains it (dist/main.js, built by
 * tools/build.mjs): the same expression holds from the sources and from the build.
 */
export const PROJECT_ROOT = join(import.meta.dirname, "..");
