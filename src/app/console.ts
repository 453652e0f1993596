import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Hono } from "hono";
import { PROJECT_ROOT } from "../project-root.ts";

/**
 * The web console (README "Web console"): the static files Vite writes to dist/console/ (tools/build.mjs), served
 * at /console/. Hashed assets (`/console/assets/*`) are cached for a year; index.html is revalidated every time.
 * Any other path under /console/ answers index.html (the console routes by the address's hash, and a reload of
 * a deep link still lands on the app). Every answer carries a strict Content-Security-Policy: scripts, styles and
 * requests from this origin only, no inline script or style, no framing. Without a build (tests or `npm run dev`
 * from the sources) /console answers 503 with a page saying how to build it.
 */
export const CONSOLE_DIR = join(PROJECT_ROOT, "dist", "console");

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** The site icon (an SVG, which every current browser takes for /favicon.ico): a blue tile with an "F". */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1f4e8c"/>' +
  '<path d="M20 14h26v8H29v8h15v8H29v12h-9z" fill="#fff"/></svg>';

const FAVICON_HEADERS = { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" };

const SECURITY = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><main><h1>The web console is not built</h1>
<p>Run <code>npm run build</code> (it writes <code>dist/console/</code>), then reload this page.</p></main></body></html>
`;

async function readIfFile(path: string): Promise<Buffer | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? readFile(path) : null;
}

/** Answers one path under /console/ from `dir`; null means "serve index.html". */
async function asset(dir: string, rest: string): Promise<Response | null> {
  let relative: string;
  try {
    relative = decodeURIComponent(rest);
  } catch {
    return new Response("bad path", { status: 400, headers: SECURITY });
  }
  const path = normalize(join(dir, relative));
  if (!path.startsWith(dir + sep) || relative.includes("\0"))
    return new Response("not found", { status: 404, headers: SECURITY });
  const type = TYPES[extname(path)];
  const body = type && extname(path) !== ".html" ? await readIfFile(path) : null;
  if (body && type) {
    const hashed = relative.startsWith("assets/");
    return new Response(new Uint8Array(body), {
      headers: {
        ...SECURITY,
        "content-type": type,
        "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
      },
    });
  }
  // A missing hashed asset is a 404 (an old index.html after a deploy), never index.html in its place.
  if (relative.startsWith("assets/")) return new Response("not found", { status: 404, headers: SECURITY });
  return null;
}

/** Mounts /console and /console/* on the app; `dir` is for tests. */
export function mountConsole(app: Hono, dir = CONSOLE_DIR): void {
  // A person who opens the server's address lands in the console (a temporary redirect: / may serve more later).
  app.get("/", (c) => c.redirect("/console/", 302));
  app.get("/favicon.ico", () => new Response(FAVICON, { headers: { ...SECURITY, ...FAVICON_HEADERS } }));
  app.get("/console", (c) => c.redirect("/console/", 301));
  app.get("/console/*", async (c) => {
    const rest = c.req.path.slice("/console/".length);
    const found = rest ? await asset(dir, rest) : null;
    if (found) return found;
    const index = await readIfFile(join(dir, "index.html"));
    if (!index) {
      return new Response(NOT_BUILT, {
        status: 503,
        headers: {
          ...SECURITY,
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "retry-after": "60",
        },
      });
    }
    return new Response(new Uint8Array(index), {
      headers: { ...SECURITY, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
    });
  });
}
