import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { CONSOLE_DIR } from "../../src/app/console.ts";
import { PROJECT_ROOT } from "../../src/project-root.ts";
import { buildConsole } from "../../tools/build.mjs";

export const CHROMIUM = "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/**
 * Where the browser test writes its PNGs: docs/screenshots/ (linked from the README) when FZ_SCREENSHOTS=1, a
 * temporary folder otherwise, so that a test run leaves the working tree as it was.
 */
export const SCREENSHOTS =
  process.env["FZ_SCREENSHOTS"] === "1"
    ? join(PROJECT_ROOT, "docs", "screenshots")
    : join(tmpdir(), "fz-console-screenshots");

function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const isFresh = (): boolean => {
  const index = join(CONSOLE_DIR, "index.html");
  return existsSync(index) && statSync(index).mtimeMs > newest(join(PROJECT_ROOT, "console"));
};

/**
 * Builds dist/console/ with Vite (about 2 s) when it is missing or older than console/ (sources, config); the
 * build `npm ci` runs is reused otherwise. The app under test serves it from there, as `npm start` does. Two test
 * files may ask at once (two workers): a lock folder lets one build while the other waits, then finds it fresh.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const lock = join(PROJECT_ROOT, "dist", ".console-build.lock");
  mkdirSync(join(PROJECT_ROOT, "dist"), { recursive: true });
  while (!isFresh()) {
    try {
      mkdirSync(lock);
    } catch {
      // Another worker is building; a lock older than a minute is a crashed build's and is taken over.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (!isFresh()) await buildConsole();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
}

/** Chromium headless from Debian, with the sandbox off (the tests run as root). */
export async function launch(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core run on the page as it is; answers the serious and critical violations. */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  const axe = (await import("axe-core")).default;
  // Evaluated over the DevTools protocol: the console's CSP (no inline script) would refuse a script tag.
  await page.evaluate(axe.source);
  const violations = (await page.evaluate("axe.run().then((r) => r.violations)")) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** A readable summary of violations for an assertion message. */
export const describeViolations = (vs: AxeViolation[]): string[] =>
  vs.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
