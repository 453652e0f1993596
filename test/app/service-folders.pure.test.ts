import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";

// The folder convention of src/services/ (docs/handler-pattern.md "Size and folders"): one `<service>.ts` per spec
// service, its use cases in `<service>/`, what several services share in `shared/`, nothing else at the root.

const SERVICES = resolve(import.meta.dirname, "../../src/services");
/** The spec's services by file name: spec/services/payment-service.openrpc.json is src/services/payment-service.ts. */
const serviceFiles = new Set(
  readdirSync(resolve(import.meta.dirname, "../../spec/services"))
    .filter((f) => f.endsWith(".openrpc.json"))
    .map((f) => f.replace(/\.openrpc\.json$/, "")),
);
const entries = readdirSync(SERVICES, { withFileTypes: true });

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("src/services/", () => {
  test("its root holds index.ts, one file per spec service, the services' folders and shared/", () => {
    const strays = entries
      .filter((e) => {
        if (e.isDirectory()) return e.name !== "shared" && !serviceFiles.has(e.name);
        return e.name !== "index.ts" && !serviceFiles.has(e.name.replace(/\.ts$/, ""));
      })
      .map((e) => e.name);
    expect(strays).toEqual([]);
  });

  test("every spec service has its file", () => {
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name.replace(/\.ts$/, "")));
    expect([...serviceFiles].filter((s) => !files.has(s))).toEqual([]);
  });

  test("a folder's shared code is common.ts or mappers.ts, never shared.ts, results.ts or *-common.ts", () => {
    const bad = allFiles(SERVICES)
      .map((f) => f.slice(SERVICES.length + 1))
      .filter((f) => /(^|\/)(shared|results)\.ts$|-common\.ts$/.test(f));
    expect(bad).toEqual([]);
  });
});
