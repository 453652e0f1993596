import { page } from "./pages.ts";

/**
 * The two pages invitation emails open (issue 30): `/invitations/<id>` (an entity formation invitation,
 * src/services/entity-draft-service/notices.ts) and `/shareholder-invite?token=` (a shareholder invitation,
 * src/services/shareholder-service/invites-email.ts). Both answers need the invitee signed in, so each page has its own
 * sign-in form (with the second factor when the account has one); the session token lives in the script's memory
 * only and is ended (authservice.logout) when the page is done. Like /verify-email, the page text is the same for
 * every link, the server never reads the id or the token from the address, and the script completes the action
 * through the JSON-RPC API. Private keys never reach these pages: an invitee whose resident holds a signing key
 * pastes the signature its own key made over the signing hash the page shows.
 */

/** Sign-in, the calls, the refusal texts: shared by both pages. `RPC` is set by each page before this runs. */
const SESSION = `
const status = document.getElementById("status");
const show = (text, kind) => {
  status.textContent = text;
  status.className = kind;
};
let token = null;
const call = async (method, params) => {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const response = await fetch(RPC, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    credentials: "omit",
    cache: "no-store",
    referrerPolicy: "no-referrer",
  });
  return response.json();
};
const variantOf = (error) => (error.data && error.data.variant) || "";
const describe = (error) => {
  const variant = variantOf(error);
  if (variant === "RateLimited") return "Too many attempts. Try again in " + error.data.retry_after_s + " seconds.";
  return error.message + " (" + error.code + (variant ? " " + variant : "") + ")";
};
// The page is done: every form hidden, the session ended on the server (best effort) and forgotten here.
const finish = async (text, kind) => {
  for (const id of ENDED) document.getElementById(id).hidden = true;
  show(text, kind);
  if (token) await call("authservice.logout", {}).catch(() => undefined);
  token = null;
};
const guard = (form, action) => {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll("button");
    for (const b of buttons) b.disabled = true;
    try {
      await action();
    } catch {
      show("The server could not be reached. Try again.", "error");
    }
    for (const b of buttons) b.disabled = false;
  });
};
const signin = document.getElementById("signin");
const mfa = document.getElementById("mfa");
const email = document.getElementById("email");
const password = document.getElementById("password");
const code = document.getElementById("code");
let challenge = null;
const signedIn = async (result) => {
  token = result.access_token;
  password.value = "";
  code.value = "";
  signin.hidden = true;
  mfa.hidden = true;
  show("", "");
  await afterSignIn();
};
guard(signin, async () => {
  show("Signing in...", "");
  const answer = await call("authservice.login", { email: email.value.trim(), password: password.value });
  if (answer.error) return show(describe(answer.error), "error");
  if (answer.result.mfa_required) {
    challenge = answer.result.mfa_challenge;
    signin.hidden = true;
    mfa.hidden = false;
    return show("Enter the code of your authenticator app.", "");
  }
  await signedIn(answer.result);
});
guard(mfa, async () => {
  const answer = await call("authservice.login_mfa", { challenge, code: code.value.trim() });
  if (answer.error) return show(describe(answer.error), "error");
  await signedIn(answer.result);
});
// Shows the sign-in form (again, with why, after a sign-in with the wrong account).
const startSignIn = (why) => {
  show(why, why ? "error" : "");
  token = null;
  signin.hidden = false;
  mfa.hidden = true;
};
`;

const SIGN_IN_FORMS = `<form id="signin" hidden>
<p>Sign in with the account the invitation was sent to.</p>
<label for="email">Email</label>
<input id="email" type="email" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" type="password" autocomplete="current-password" required>
<button id="signin-submit" type="submit">Sign in</button>
</form>
<form id="mfa" hidden>
<label for="code">Code from your authenticator app, or a backup code</label>
<input id="code" type="text" inputmode="numeric" autocomplete="one-time-code" required>
<button id="mfa-submit" type="submit">Verify</button>
</form>`;

const INVITATION_SCRIPT = `const RPC = "../rpc";
const ENDED = ["signin", "mfa", "invitation"];
${SESSION}
const invitationId = decodeURIComponent(location.pathname.split("/").pop() || "");
const section = document.getElementById("invitation");
const signatureField = document.getElementById("signature-field");
const signature = document.getElementById("signature");
let needsSignature = false;
const ANSWERED = {
  accepted: "You already accepted this invitation.",
  rejected: "You already declined this invitation.",
  expired: "This invitation has expired. Ask the founder for a new one.",
};
// Refusals that end the page: the invitation can no longer be answered from this link.
const FINAL = {
  NotFound: "This invitation is not addressed to the account you signed in with.",
  NotOwner: "This invitation is not addressed to the account you signed in with.",
  Expired: "This invitation has expired. Ask the founder for a new one.",
  InvalidState: "This invitation can no longer be answered: it was answered already, or the formation was cancelled.",
  VersionMismatch: "The documents changed after this invitation was sent; the founder will send a new invitation.",
};
const refusal = async (error) => {
  const variant = variantOf(error);
  if (Object.hasOwn(FINAL, variant)) return finish(FINAL[variant], "error");
  if (variant === "InvalidSignature") return show("The signature does not verify with your resident's key over this signing hash.", "error");
  show(describe(error), "error");
};
const afterSignIn = async () => {
  show("Loading the invitation...", "");
  const mine = await call("entitydraftservice.get_my_invitations", {});
  if (mine.error) return refusal(mine.error);
  const invitation = mine.result.items.find((i) => i.sid === invitationId);
  if (!invitation) {
    if (token) await call("authservice.logout", {}).catch(() => undefined);
    return startSignIn("This invitation is not addressed to the account you signed in with. Sign in with the account the email was sent to.");
  }
  if (Object.hasOwn(ANSWERED, invitation.status)) return finish(ANSWERED[invitation.status], "error");
  const docs = await call("entitydraftservice.get_invitation_documents", { invitation_id: invitationId });
  if (docs.error) return refusal(docs.error);
  const resident = await call("residentservice.get", { resident_id: invitation.invitee_dr_id });
  needsSignature = !resident.error && Boolean(resident.result.public_key);
  const units = invitation.share_units > 0 ? " with " + invitation.share_units + " share units" : "";
  document.getElementById("summary").textContent =
    (invitation.inviter_name || "A founder") + " invites you to sign the formation documents of " +
    invitation.entity_name + " as " + invitation.role.replace(/_/g, " ") + units + ". The invitation expires at " +
    invitation.expires_at + ".";
  document.getElementById("documents").textContent = docs.result.documents
    .map((d) => "== " + d.name + " ==\\n\\n" + d.content)
    .join("\\n\\n");
  document.getElementById("signing-hash").textContent = docs.result.signing_hash;
  signatureField.hidden = !needsSignature;
  section.hidden = false;
  show("", "");
};
guard(document.getElementById("accept"), async () => {
  const params = { invitation_id: invitationId };
  if (needsSignature) {
    const value = signature.value.trim().toLowerCase();
    if (!/^[0-9a-f]{128}$/.test(value)) return show("The signature must be 128 hexadecimal characters.", "error");
    params.signature = value;
  }
  show("Accepting...", "");
  const answer = await call("entitydraftservice.accept_invitation", params);
  if (answer.error) return refusal(answer.error);
  await finish("You accepted the invitation and signed the documents of " + answer.result.entity_name + ". You can close this page.", "done");
});
guard(document.getElementById("decline"), async () => {
  const reason = document.getElementById("reason").value.trim();
  show("Declining...", "");
  const answer = await call("entitydraftservice.decline_invitation", reason ? { invitation_id: invitationId, reason } : { invitation_id: invitationId });
  if (answer.error) return refusal(answer.error);
  await finish("You declined the invitation; the founder is told. You can close this page.", "done");
});
if (!invitationId) show("This link names no invitation. Open the link from the email again.", "error");
else startSignIn("");
`;

const SHAREHOLDER_SCRIPT = `const RPC = "rpc";
const ENDED = ["signin", "mfa", "answer"];
${SESSION}
const inviteToken = new URLSearchParams(location.search).get("token");
// The token leaves the address bar and the history at once (it is a one-time credential).
history.replaceState(null, "", location.pathname);
const answerForm = document.getElementById("answer");
const resident = document.getElementById("resident");
const FINAL = {
  NotFound: "This invitation link is not valid.",
  Forbidden: "This invitation was sent to another email address. Sign in with the account of that address (its email verified).",
  Expired: "This invitation has expired. Ask the company for a new one.",
  AlreadyUsed: "This invitation was already answered.",
  InvalidState: "The company cannot take this invitation up now.",
};
const refusal = (error) => {
  const variant = variantOf(error);
  if (Object.hasOwn(FINAL, variant)) return finish(FINAL[variant], "error");
  show(describe(error), "error");
};
const afterSignIn = async () => {
  const mine = await call("residentservice.list", { page: 1, page_size: 100 });
  if (mine.error) return refusal(mine.error);
  resident.replaceChildren();
  for (const r of mine.result.items) {
    const option = document.createElement("option");
    option.value = r.resident_id;
    option.textContent = r.first_name + " " + r.last_name + " (" + r.resident_id + ")";
    resident.append(option);
  }
  if (mine.result.items.length === 0) {
    document.getElementById("accept-submit").hidden = true;
    show("Your account has no resident to take the units up: create your resident first, or decline.", "error");
  }
  answerForm.hidden = false;
};
guard(answerForm, async () => {
  show("Accepting...", "");
  const answer = await call("shareholderservice.accept_invite", { invite_token: inviteToken, resident_id: resident.value });
  if (answer.error) return refusal(answer.error);
  await finish("You accepted: " + answer.result.units + " share units are issued to " + answer.result.resident_id + ". You can close this page.", "done");
});
document.getElementById("reject").addEventListener("click", async () => {
  show("Declining...", "");
  try {
    const answer = await call("shareholderservice.reject_invite", { invite_token: inviteToken });
    if (answer.error) return refusal(answer.error);
    await finish("You declined the invitation. You can close this page.", "done");
  } catch {
    show("The server could not be reached. Try again.", "error");
  }
});
if (!inviteToken) show("This link has no token. Open the link from the email again.", "error");
else startSignIn("");
`;

export const INVITATION_PAGE = page(
  "Formation invitation",
  `${SIGN_IN_FORMS}
<section id="invitation" hidden>
<p id="summary"></p>
<h2>Documents</h2>
<pre id="documents" tabindex="0"></pre>
<p>Signing hash: <code id="signing-hash"></code></p>
<form id="accept">
<div id="signature-field" hidden>
<label for="signature">Your signature: the signing hash signed with your resident's key (128 hexadecimal characters)</label>
<textarea id="signature" rows="3" spellcheck="false" autocomplete="off"></textarea>
</div>
<button id="accept-submit" type="submit">Accept and sign</button>
</form>
<form id="decline">
<label for="reason">Reason for declining (optional, sent to the founder)</label>
<textarea id="reason" rows="3" maxlength="1000"></textarea>
<button id="decline-submit" type="submit">Decline</button>
</form>
</section>`,
  INVITATION_SCRIPT,
);

export const SHAREHOLDER_INVITE_PAGE = page(
  "Shareholder invitation",
  `${SIGN_IN_FORMS}
<form id="answer" hidden>
<label for="resident">The resident that takes the units up</label>
<select id="resident"></select>
<button id="accept-submit" type="submit">Accept</button>
<button id="reject" type="button">Decline</button>
</form>`,
  SHAREHOLDER_SCRIPT,
);
