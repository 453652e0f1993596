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
  put(
    main,
    ...page(
      "Sign in",
      h("section", { class: "card narrow" }, form),
      h("section", { class: "card narrow", "aria-label": "No account yet, or locked out" }, ...accountForms()),
    ),
  );
}

/** A form that asks for one email and tells what happens next, whatever the server found (it leaks nothing). */
function emailForm(label: string, button: string, method: string, answer: string): HTMLElement {
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const status = statusRegion();
  const form = h(
    "form",
    { "aria-label": label },
    field("Email", email),
    h("button", { type: "submit" }, button),
    status.el,
  );
  onSubmit(form, async () => {
    status.busy("Sending…");
    try {
      await call(method, { email: email.value });
      status.done(h("p", {}, answer));
    } catch (err) {
      status.fail(err);
    }
  });
  return h("details", {}, h("summary", {}, label), form);
}

/** Sign-up, a forgotten password and a lost verification email, from the sign-in page (issue 32 item 14). */
function accountForms(): HTMLElement[] {
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const password = h("input", { type: "password", name: "password", autocomplete: "new-password", required: true });
  const first = h("input", { type: "text", name: "first_name", autocomplete: "given-name" });
  const last = h("input", { type: "text", name: "last_name", autocomplete: "family-name" });
  const status = statusRegion();
  const signUp = h(
    "form",
    { "aria-label": "Create an account" },
    field("Email", email),
    field("Password (8 to 128 characters, not a common one)", password),
    field("First name", first),
    field("Last name", last),
    h("button", { type: "submit" }, "Create the account"),
    status.el,
  );
  onSubmit(signUp, async () => {
    status.busy("Creating the account…");
    try {
      const names = {
        ...(first.value ? { first_name: first.value } : {}),
        ...(last.value ? { last_name: last.value } : {}),
      };
      signedIn(
        await call<AuthSession>("authservice.register", { email: email.value, password: password.value, ...names }),
        email.value,
      );
    } catch (err) {
      status.fail(err);
    }
  });
  return [
    h("details", {}, h("summary", {}, "Create an account"), signUp),
    emailForm(
      "Forgot your password?",
      "Send a reset link",
      "authservice.request_password_reset",
      "If an account has this address, a link to set a new password is on its way (valid one hour).",
    ),
    emailForm(
      "Resend the verification email",
      "Send it again",
      "authservice.send_verification_email",
      "If an unverified account has this address, a new verification link is on its way.",
    ),
  ];
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
