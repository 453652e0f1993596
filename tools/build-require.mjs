// An esbuild plugin for the server bundle: a package that exists only as CommonJS is loaded with `require()` instead
// of `import`. Node imports CommonJS into ES modules by scanning the package's files for export names
// (cjs-module-lexer), following every re-export: for MikroORM and knex that scan costs more than loading them
// (measured: `import` of @mikro-orm/postgresql 894 ms of CPU against 552 ms for `require`, on the shared machine).
// Each such import becomes a small module: `const m = require("pkg"); export default m; export const { a, b } = m;`
// with the names `require` finds at build time: Node's own semantics for importing CommonJS (default is
// module.exports, names are read once), minus the scan. A name the package does not export fails the build.
// The same holds for a package whose `import` entry is only an ES module wrapper of its CommonJS entry
// (`import mod from "./index.js"; export const X = mod.X`: MikroORM, knex, pg): it loads the same CommonJS module.
// ES module packages, and packages shipping both formats (whose `import` and `require` entries are separate code:
// two copies would be loaded), are imported as before.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const NAMESPACE = "require-commonjs";
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** The default import an ES module wrapper starts with: `import mod from "./index.js";`. */
const WRAPPED = /^\s*(?:\/\/[^\n]*\n\s*)*import\s+[\w$]+\s+from\s+["'](\.[^"']+)["']/;

/** Whether the ES module at `imported` (a URL) only wraps the CommonJS file `required` (a path). */
function wraps(imported, required) {
  if (!imported.startsWith("file:")) return false;
  const file = fileURLToPath(imported);
  const match = WRAPPED.exec(readFileSync(file, "utf8"));
  return match !== null && resolve(dirname(file), match[1]) === required;
}

const RESERVED = new Set(["default", "__esModule", "await", "enum", "implements", "package", "protected", "static"]);

export function requireCommonJs(root) {
  const fromRoot = createRequire(`${root}/package.json`);
  const verdicts = new Map();

  /** Export names when `spec` is a CommonJS-only package (the same file for import and require); else null. */
  function commonJsNames(spec) {
    if (verdicts.has(spec)) return verdicts.get(spec);
    let names = null;
    try {
      const required = fromRoot.resolve(spec);
      const imported = import.meta.resolve(spec, pathToFileURL(`${root}/package.json`).href);
      const same = imported === pathToFileURL(required).href && !required.endsWith(".mjs");
      if (same || wraps(imported, required)) {
        const exported = fromRoot(spec);
        names = Object.keys(exported).filter((name) => IDENTIFIER.test(name) && !RESERVED.has(name));
      }
    } catch {
      names = null; // an ES module (ERR_REQUIRE_ESM) or not resolvable here: leave it to Node
    }
    verdicts.set(spec, names);
    return names;
  }

  return {
    name: NAMESPACE,
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind !== "import-statement" || args.path.startsWith("node:")) return undefined;
        return commonJsNames(args.path) ? { path: args.path, namespace: NAMESPACE } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const names = commonJsNames(args.path) ?? [];
        const spec = JSON.stringify(args.path);
        const named = names.length > 0 ? `export const { ${names.join(", ")} } = m;\n` : "";
        return { contents: `const m = require(${spec});\nexport default m;\n${named}`, loader: "js", resolveDir: root };
      });
    },
  };
}
