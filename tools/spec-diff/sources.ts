import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { Diagnostics } from "../../codegen/diagnostics.ts";
import { type Contract, contractFromOpenrpc, contractFromSpecDir } from "./contract.ts";

/** A contract, or the diagnostics that stopped reading it (file and JSON pointer each). */
export interface Loaded {
  contract: Contract | null;
  diags: Diagnostics;
  /** What the argument was read as: `file`, `spec directory`, `git ref`, `url`. */
  kind: string;
}

function parseJson(text: string, file: string, diags: Diagnostics): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    diags.add("invalid-json", file, "", `cannot parse JSON: ${(err as Error).message}`);
    return undefined;
  }
}

function fromText(text: string, file: string, kind: string): Loaded {
  const diags = new Diagnostics();
  const doc = parseJson(text, file, diags);
  const contract = doc === undefined ? null : contractFromOpenrpc(doc, file, diags);
  return { contract, diags, kind };
}

/** A path as diagnostics show it: relative inside the working directory, absolute outside it (no `../..`). */
function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : rel;
}

/** `spec/` itself, or a project root holding one. */
function specDirOf(dir: string): string | null {
  if (existsSync(join(dir, "platform.json"))) return dir;
  if (existsSync(join(dir, "spec", "platform.json"))) return join(dir, "spec");
  return null;
}

function fromDirectory(dir: string, cwd: string): Loaded {
  const specDir = specDirOf(dir);
  const diags = new Diagnostics();
  if (!specDir) {
    diags.add("not-a-spec", shown(cwd, dir), "", "no platform.json here nor under spec/: not a spec directory");
    return { contract: null, diags, kind: "spec directory" };
  }
  const parent = shown(cwd, join(specDir, ".."));
  const contract = contractFromSpecDir(specDir, (file) => (parent === "." ? file : join(parent, file)), diags);
  return { contract, diags, kind: "spec directory" };
}

function isCommit(ref: string, cwd: string): boolean {
  if (ref.startsWith("-")) return false;
  const probe = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd, encoding: "utf8" });
  return probe.status === 0;
}

/** `spec/` as committed at `ref`, extracted with `git archive` into a scratch directory. */
function fromGitRef(ref: string, cwd: string): Loaded {
  const scratch = mkdtempSync(join(tmpdir(), "spec-diff-"));
  try {
    const archive = spawnSync("git", ["archive", "--format=tar", ref, "spec"], { cwd, maxBuffer: 1 << 30 });
    const diags = new Diagnostics();
    if (archive.status !== 0) {
      diags.add("no-spec-at-ref", `${ref}:spec`, "", `git archive failed: ${archive.stderr.toString().trim()}`);
      return { contract: null, diags, kind: "git ref" };
    }
    execFileSync("tar", ["-x", "-C", scratch], { input: archive.stdout });
    const contract = contractFromSpecDir(join(scratch, "spec"), (file) => `${ref}:${file}`, diags);
    return { contract, diags, kind: "git ref" };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function fromUrl(url: string): Promise<Loaded> {
  try {
    const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(30_000) });
    if (!response.ok) {
      const diags = new Diagnostics();
      diags.add("fetch-failed", url, "", `HTTP ${response.status} ${response.statusText}`);
      return { contract: null, diags, kind: "url" };
    }
    return fromText(await response.text(), url, "url");
  } catch (err) {
    const diags = new Diagnostics();
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    diags.add("fetch-failed", url, "", `cannot fetch: ${cause ?? (err as Error).message}`);
    return { contract: null, diags, kind: "url" };
  }
}

/**
 * Reads one side of a diff: an http(s) URL, an existing file (an OpenRPC document) or directory (`spec/` or a
 * project root), else a git ref of the repository at `cwd` (its `spec/`).
 */
export async function loadContract(arg: string, cwd: string): Promise<Loaded> {
  if (/^https?:\/\//i.test(arg)) return fromUrl(arg);
  const full = resolve(cwd, arg);
  if (existsSync(full)) {
    if (statSync(full).isDirectory()) return fromDirectory(full, cwd);
    return fromText(readFileSync(full, "utf8"), arg, "file");
  }
  if (isCommit(arg, cwd)) return fromGitRef(arg, cwd);
  const diags = new Diagnostics();
  diags.add("not-found", arg, "", "neither a file, a directory, a git ref of this repository nor an http(s) URL");
  return { contract: null, diags, kind: "unknown" };
}
