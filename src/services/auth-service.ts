import type { UserRow } from "../../generated/entities.ts";
import type { AuthServiceHandlers } from "../../generated/handlers/index.ts";
import type { UserInfo } from "../../generated/types.ts";
import { limitAddress } from "../auth/limits.ts";
import { checkPasswordRules, hashPassword } from "../auth/passwords.ts";
import { openSession, revokeSession, revokeUserSessions, rotateRefreshToken } from "../auth/sessions.ts";
import { createUser, findUserById, storePasswordHash } from "../auth/users.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { issueVerificationEmail, sendVerificationEmail, verifyEmail } from "./auth-service/email-verification.ts";
import { login } from "./auth-service/login.ts";
import { issueChallenge, loginMfa } from "./auth-service/mfa-challenge.ts";
import { passwordChanged, requestPasswordReset, resetPassword } from "./auth-service/password-reset.ts";
import { beginRecovery, handleRecoveryWebhook, pollRecovery } from "./auth-service/recovery.ts";
import { disable, enrollBegin, enrollConfirm, stepUp } from "./auth-service/totp-enrolment.ts";

const authError = errorsFor("AuthService", "AuthError");

/** The caller's session: x-auth session (the dispatcher) refused API keys already, so this only narrows. */
function sessionId(ctx: RpcContext): string {
  const id = requireCaller(ctx).sessionId;
  if (!id) throw authError("SessionRequired", "this operation needs a signed-in session");
  return id;
}

/** The account as `me` shows it: never the password hash, the TOTP secret or the backup codes. */
export function toUserInfo(user: UserRow): UserInfo {
  return {
    user_id: user.sid,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    email_verified: user.email_verified,
    totp_enabled: user.totp_enabled,
    roles: user.roles,
    created_at: user.created_at.toISOString(),
  };
}

/** AuthService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const authService: AuthServiceHandlers<RpcContext> = {
  async register(ctx, { email, password, first_name, last_name }) {
    await limitAddress(ctx, "RegistrationError");
    const user = await createUser(ctx.em, ctx.config, ctx.now(), {
      email,
      password,
      firstName: first_name ?? null,
      lastName: last_name ?? null,
    });
    try {
      await issueVerificationEmail(ctx, user);
    } catch (err) {
      // The account stands without the email; the user can ask for another with send_verification_email.
      if (!(err instanceof RpcError)) throw err;
      ctx.log.warn({ userId: user.sid }, "verification email not sent at registration");
    }
    return (await openSession(ctx.em, ctx.config, ctx.now(), user.sid, ctx.request)).result;
  },

  async login(ctx, { email, password }) {
    return login(ctx, email, password, issueChallenge);
  },

  async me(ctx, { user_id }) {
    const user = await findUserById(ctx.em, user_id);
    if (!user) throw authError.notFound("user");
    return toUserInfo(user);
  },

  async refreshToken(ctx, { token }) {
    await limitAddress(ctx, "AuthError");
    return rotateRefreshToken(ctx, ctx.config, ctx.now(), token, ctx.request);
  },

  async sendVerificationEmail(ctx, { email }) {
    return sendVerificationEmail(ctx, email);
  },

  async verifyEmail(ctx, { token }) {
    return verifyEmail(ctx, token);
  },

  /** The old password was checked by the dispatcher (x-password); every other session of the account ends. */
  async changePassword(ctx, { user_id, old_password, new_password }) {
    const user = await findUserById(ctx.em, user_id);
    if (!user) throw authError.notFound("user");
    checkPasswordRules(new_password, user.email, "AuthError");
    // old_password was verified by the dispatcher (x-password): the same text is the same password.
    if (new_password === old_password) {
      throw authError("WeakPassword", "password must differ from the current one", {
        rule: "must differ from the current one",
      });
    }
    const now = ctx.now();
    await storePasswordHash(ctx.em, user.sid, await hashPassword(new_password, ctx.config.argon2), now);
    return passwordChanged(user, now, await revokeUserSessions(ctx.em, user.sid, now, sessionId(ctx)));
  },

  async requestPasswordReset(ctx, { email }) {
    return requestPasswordReset(ctx, email);
  },

  async resetPassword(ctx, { token, new_password }) {
    return resetPassword(ctx, token, new_password);
  },

  async logout(ctx) {
    const now = ctx.now();
    await revokeSession(ctx.em, sessionId(ctx), now);
    return { logged_out: true, revoked_at: now.toISOString() };
  },

  async userTotpEnrollBegin(ctx, { user_id }) {
    return enrollBegin(ctx, user_id);
  },

  async userTotpEnrollConfirm(ctx, { user_id, code }) {
    return enrollConfirm(ctx, user_id, code);
  },

  async userTotpVerify(ctx, { user_id, code }) {
    return stepUp(ctx, user_id, code);
  },

  async userTotpDisable(ctx, { user_id, code }) {
    return disable(ctx, user_id, code);
  },

  async loginMfa(ctx, { challenge, code }) {
    return loginMfa(ctx, challenge, code);
  },

  async begin2faRecovery(ctx, { mfa_challenge }) {
    return beginRecovery(ctx, mfa_challenge);
  },

  async poll2faRecovery(ctx, { recovery_id }) {
    return pollRecovery(ctx, recovery_id);
  },

  async handleRecoveryWebhook(ctx, { data }) {
    return handleRecoveryWebhook(ctx, data);
  },
};
