import { join } from "node:path";
import { defineConfig } from "vite";

// The web console (README "Web console"): built by tools/build.mjs into dist/console/, served by the app at
// /console/ (src/app/console.ts). Absolute asset URLs under /console/ so that the SPA fallback (any unknown path
// under /console/ answers index.html) loads the same assets. No inline script or style: the CSP forbids them.
export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  logLevel: "warn",
  build: {
    outDir: join(import.meta.dirname, "..", "dist", "console"),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: "es2022",
  },
});
