import { call, loadSession, saveSession } from "../api.ts";
import { field, h, put } from "../dom.ts";
import { onSubmit, page, statusRegion } from "../ui.ts";

interface AuthSession {
  user_id: string;
  access_token: string;
  refresh_token: string;
}
interface MfaChallenge {
  mfa_required: true;
  mfa_challenge: string;
}

function signedIn(session: AuthSession, email: string): void {
  saveSession({
    user_id: session.user_id,
    access_token: session.access_token,
    refresh_token: session.refresh_token,
    email,
  });
  location.hash = "#/home";
}

/** Email and password; when the account has TOTP on, a second step asks for the 6-digit code. */
export async function signInPage(main: HTMLElement): Promise<void> {
  const email = h("input", { type: "email", name: "email", autocomplete: "username", required: true });
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const status = statusRegion();
  const form = h(
    "form",
    { "aria-label": "Sign in" },
    field("Email", email),
    field("Password", password),
    h("button", { type: "submit" }, "Sign in"),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy("Signing in…");
    try {
      const r = await call<AuthSession | MfaChallenge>("authservice.login", {
        email: email.value,
        password: password.value,
      });
      if ("mfa_required" in r) totpStep(main, r.mfa_challenge, email.value);
      else signedIn(r, email.value);
    } catch (err) {
      status.fail(err);
    }
  });
  put(main, ...page("Sign in", h("section", { class: "card narrow" }, form)));
}

function totpStep(main: HTMLElement, challenge: string, email: string): void {
  const code = h("input", {
    type: "text",
    name: "code",
    inputmode: "numeric",
    autocomplete: "one-time-code",
    pattern: "[0-9]{6}",
    required: true,
  });
  const status = statusRegion();
  const form = h(
    "form",
    { "aria-label": "Two-factor sign-in" },
    h("p", {}, "This account has two-factor sign-in on. Enter the 6-digit code from your authenticator app."),
    field("Authenticator code", code),
    h("button", { type: "submit" }, "Verify"),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy("Verifying…");
    try {
      signedIn(await call<AuthSession>("authservice.login_mfa", { challenge, code: code.value.trim() }), email);
    } catch (err) {
      status.fail(err);
    }
  });
  put(main, ...page("Two-factor sign-in", h("section", { class: "card narrow" }, form)));
  main.querySelector("h1")?.focus();
}

/** Ends the session on the server (best effort), then forgets it here. */
export async function signOut(): Promise<void> {
  if (loadSession()) await call("authservice.logout").catch(() => undefined);
  saveSession(null);
  location.hash = "#/signin";
}
