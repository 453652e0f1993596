import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { CONSOLE_DIR } from "../../src/app/console.ts";
import { PROJECT_ROOT } from "../../src/project-root.ts";
import { buildConsole } from "../../tools/build.mjs";

export const CHROMIUM = "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const SCREENSHOTS = join(PROJECT_ROOT, "docs", "screenshots");

function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * Builds dist/console/ with Vite (about 2 s) when it is missing or older than console/ (sources, config); the
 * build `npm ci` runs is reused otherwise. The app under test serves it from there, as `npm start` does.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const index = join(CONSOLE_DIR, "index.html");
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > newest(join(PROJECT_ROOT, "console"))) return;
  await buildConsole();
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
