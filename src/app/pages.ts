import { createHash } from "node:crypto";

/**
 * The pages email links open (`/verify-email?token=`, `/reset-password?token=`; the invitation links' pages are in
 * invitation-pages.ts, built with `page` below): small, self-contained HTML
 * whose inline script completes the action through the JSON-RPC API (`POST rpc`, relative to the page, so a
 * PUBLIC_BASE_URL with a path prefix works). The server never reads the token: the page is the same text for
 * every link, the script takes the token from the address and removes it from the address bar and history before
 * calling the API, and nothing on the way logs a URL. A web console may replace these pages later.
 */
export interface Page {
  html: string;
  headers: Record<string, string>;
}

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 28rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px; }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; margin: 1rem 0 0.25rem; }
input, textarea, select { box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit; }
h2 { font-size: 1.1rem; }
pre { white-space: pre-wrap; max-height: 24rem; overflow: auto; background: #f4f5f7; padding: 0.75rem; }
code { overflow-wrap: anywhere; }
button { margin-top: 1.25rem; padding: 0.5rem 1.25rem; font: inherit; cursor: pointer; }
#status.error { color: #a11; }
#status.done { color: #175; }
`;

/** Shared by both pages: the API call, and what each refusal means to the person who clicked the link. */
const COMMON = `
const token = new URLSearchParams(location.search).get("token");
// The token leaves the address bar and the history at once (it is a one-time credential).
history.replaceState(null, "", location.pathname);
const form = document.getElementById("form");
const button = document.getElementById("submit");
const status = document.getElementById("status");
const show = (text, kind) => {
  status.textContent = text;
  status.className = kind;
};
const call = async (method, params) => {
  const response = await fetch("rpc", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    credentials: "omit",
    cache: "no-store",
    referrerPolicy: "no-referrer",
  });
  return response.json();
};
// A refusal of the link itself ends the page; anything else leaves the form to try again.
const linkRefusals = {
  NotFound: "This link is not valid. Ask for a new email.",
  InvalidCredentials: "This link is not valid. Ask for a new email.",
  Expired: "This link has expired. Ask for a new email.",
  AlreadyUsed: "This link was already used.",
};
const refused = (error) => {
  const variant = error.data ? error.data.variant : "";
  if (Object.hasOwn(linkRefusals, variant)) {
    form.hidden = true;
    return linkRefusals[variant];
  }
  if (variant === "RateLimited") return "Too many attempts. Try again in " + error.data.retry_after_s + " seconds.";
  return error.message + " (" + error.code + ")";
};
const run = (action) => {
  if (!token) {
    show("This link has no token. Open the link from the email again.", "error");
    return;
  }
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await action();
    } catch {
      show("The server could not be reached. Try again.", "error");
    }
    button.disabled = false;
  });
};
`;

const VERIFY_SCRIPT = `${COMMON}
run(async () => {
  show("Confirming...", "");
  const answer = await call("authservice.verify_email", { token });
  if (answer.error) {
    show(refused(answer.error), "error");
    return;
  }
  form.hidden = true;
  show("Your email address " + answer.result.email + " is confirmed. You can close this page.", "done");
});
`;

const RESET_SCRIPT = `${COMMON}
const password = document.getElementById("password");
const repeat = document.getElementById("repeat");
run(async () => {
  if (password.value !== repeat.value) {
    show("The two passwords differ.", "error");
    return;
  }
  show("Saving...", "");
  const answer = await call("authservice.reset_password", { token, new_password: password.value });
  if (answer.error) {
    show(refused(answer.error), "error");
    return;
  }
  form.hidden = true;
  password.value = "";
  repeat.value = "";
  show(
    "Your password is changed. Every session was signed out and your API keys were revoked: sign in with the new " +
      "password and mint new keys.",
    "done",
  );
});
`;

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** The page's script: strict, in a function of its own, so nothing it declares lands on `window`. */
const scoped = (code: string): string => `(() => {\n"use strict";\n${code}})();\n`;

/** A self-contained page: its title, body and inline script, with the CSP that allows exactly those. */
export function page(title: string, body: string, code: string): Page {
  const script = scoped(code);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} - freezone registry</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
<p id="status" role="status"></p>
<noscript><p>This page needs JavaScript: it sends the token of your link to the API.</p></noscript>
</main>
<script>${script}</script>
</body>
</html>
`;
  // Only what the page uses: its own inline style and script (by hash), and calls to this server's API.
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(STYLE)}`,
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
    },
  };
}

export const VERIFY_EMAIL_PAGE = page(
  "Confirm your email address",
  `<form id="form" hidden>
<p>Confirm that this email address belongs to your freezone account.</p>
<button id="submit" type="submit">Confirm my email address</button>
</form>`,
  VERIFY_SCRIPT,
);

export const RESET_PASSWORD_PAGE = page(
  "Choose a new password",
  `<form id="form" hidden>
<label for="password">New password (8 to 128 characters)</label>
<input id="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>
<label for="repeat">The same password again</label>
<input id="repeat" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>
<button id="submit" type="submit">Set the new password</button>
</form>`,
  RESET_SCRIPT,
);

/** A page as an HTTP answer. */
export const pageResponse = (p: Page): Response => new Response(p.html, { status: 200, headers: p.headers });
