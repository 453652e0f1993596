import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { checkGenerated } from "../../codegen/drift.ts";
import { generate } from "../../codegen/generate.ts";
import { writeFiles } from "../../codegen/write.ts";
import { copyFixture, editJson, REPO_ROOT, readText, removeDir, writeText } from "./support.ts";

// docs/reference/ (codegen/emit/reference.ts): drift-checked like generated/, and what it says of a known method.
describe("drift of docs/reference/ on a scratch copy of the fixture", () => {
  let root: string;

  beforeEach(async () => {
    root = copyFixture();
    const { files, diagnostics } = await generate(root);
    expect(diagnostics).toEqual([]);
    writeFiles(root, files);
  });

  afterEach(() => removeDir(root));

  test("a changed method description makes the check name the service page, and codegen:check exit 1", async () => {
    expect((await checkGenerated(root)).drifted).toEqual([]);
    editJson(root, "spec/services/note-service.openrpc.json", (d) => {
      d.methods[0].description = "Creates a note; refuses an empty title.";
    });
    const { drifted } = await checkGenerated(root);
    expect(drifted).toContain("docs/reference/services/note-service.md");
    expect(drifted.filter((p) => p.startsWith("docs/reference/"))).toEqual(["docs/reference/services/note-service.md"]);
    const run = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsx"), ["codegen/cli.ts", "--check", "--root", root], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("  docs/reference/services/note-service.md\n");
  });

  test("a hand edit and a stray page are drift", async () => {
    writeText(root, "docs/reference/index.md", `${readText(root, "docs/reference/index.md")}\nhand-written\n`);
    writeText(root, "docs/reference/services/old-service.md", "# OldService\n");
    expect((await checkGenerated(root)).drifted).toEqual([
      "docs/reference/index.md",
      "docs/reference/services/old-service.md",
    ]);
  });
});

describe("the committed docs/reference/", () => {
  const DIR = join(REPO_ROOT, "docs", "reference");
  const page = (path: string) => readFileSync(join(DIR, path), "utf8");

  test("residentservice.create appears with its summary, auth, params, result and errors", () => {
    const text = page("services/resident-service.md");
    const section = text.slice(text.indexOf("### residentservice.create\n"), text.indexOf("### residentservice.get\n"));
    expect(section).toContain("**Create the caller's personal resident**");
    expect(section).toContain("- Auth: `user`: a signed-in user or an API key");
    expect(section).toContain("- MCP tool: `freezone_residentservice_create`\n");
    expect(section).toContain("| `user_id` | string | yes | The user's id; filled from the caller when omitted");
    expect(section).toContain("| `data` | [CreateResidentData](../types.md#createresidentdata) | yes |");
    expect(section).toContain("Result: [ResidentResult](../types.md#residentresult)");
    expect(section).toContain("| `ResidentError.AlreadyExists` | -32005 | Conflict |");
    expect(section).toContain("| `ResidentError.InvalidInput` | -32006 | RuleViolated |");
    expect(page("index.md")).toContain("| `identity` | [ResidentService](services/resident-service.md) | 10 |");
    expect(page("types.md")).toContain("## ResidentStatus\n\nLife-cycle state of a digital resident.");
    expect(page("errors.md")).toContain("| -32005 | Conflict | Conflict | `AlreadyExists` |");
  });

  test("every relative link resolves to a page and, with a #fragment, to one of its headings", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const headings = new Map<string, Set<string>>();
    const anchors = (path: string) => {
      if (!headings.has(path))
        headings.set(
          path,
          new Set(
            [...readFileSync(path, "utf8").matchAll(/^#+ (.+)$/gm)].map((m) =>
              m[1]!
                .toLowerCase()
                .replace(/[^a-z0-9 _-]/g, "")
                .replaceAll(" ", "-"),
            ),
          ),
        );
      return headings.get(path)!;
    };
    const broken: string[] = [];
    let links = 0;
    for (const file of files(DIR)) {
      for (const [, target] of readFileSync(file, "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        links += 1;
        const [path, fragment] = target!.split("#");
        const resolved = path ? join(dirname(file), path) : file;
        if (!existsSync(resolved) || (fragment && !anchors(resolved).has(fragment)))
          broken.push(`${relative(DIR, file)} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(1000);
  });
});
