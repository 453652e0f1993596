import type { AuthServiceHandlers } from "../../generated/handlers/index.ts";
import type { UserRole } from "../../generated/types.ts";
import { verifyAgainstDummy, verifyPassword } from "../auth/passwords.ts";
import { openSession } from "../auth/sessions.ts";
import { createUser, findUserByEmail, type UserRow } from "../auth/users.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

const invalidLogin = () => RpcError.unauthenticated("InvalidCredentials", "wrong email or password");

/** AuthService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const authService: AuthServiceHandlers<RpcContext> = {
  async register(ctx, { email, password, first_name, last_name }) {
    const user = await createUser(ctx.em, ctx.config, ctx.now(), {
      email,
      password,
      firstName: first_name ?? null,
      lastName: last_name ?? null,
    });
    return (await openSession(ctx.em, ctx.config, ctx.now(), user.sid, ctx.request)).result;
  },

  async login(ctx, { email, password }) {
    const user = await findUserByEmail(ctx.em, email);
    const ok = user
      ? await verifyPassword(user.password_hash, password)
      : await verifyAgainstDummy(password, ctx.config.argon2);
    if (!user || !ok) throw invalidLogin();
    if (user.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
    return (await openSession(ctx.em, ctx.config, ctx.now(), user.sid, ctx.request)).result;
  },

  async me(ctx, { user_id }) {
    const user = await ctx.em.findOne<UserRow>("User", { sid: user_id });
    if (!user) throw RpcError.notFound("AuthError", "user");
    return {
      user_id: user.sid,
      email: user.email,
      first_name: (user["first_name"] as string | null) ?? null,
      last_name: (user["last_name"] as string | null) ?? null,
      email_verified: user["email_verified"] === true,
      totp_enabled: user.totp_enabled,
      roles: user.roles as UserRole[],
      created_at: (user["created_at"] as Date).toISOString(),
    };
  },
  async refreshToken(_ctx, _params) {
    throw RpcError.notImplemented("authservice.refresh_token");
  },
  async sendVerificationEmail(_ctx, _params) {
    throw RpcError.notImplemented("authservice.send_verification_email");
  },
  async verifyEmail(_ctx, _params) {
    throw RpcError.notImplemented("authservice.verify_email");
  },
  async changePassword(_ctx, _params) {
    throw RpcError.notImplemented("authservice.change_password");
  },
  async userTotpEnrollBegin(_ctx, _params) {
    throw RpcError.notImplemented("authservice.user_totp_enroll_begin");
  },
  async userTotpEnrollConfirm(_ctx, _params) {
    throw RpcError.notImplemented("authservice.user_totp_enroll_confirm");
  },
  async userTotpVerify(_ctx, _params) {
    throw RpcError.notImplemented("authservice.user_totp_verify");
  },
  async userTotpDisable(_ctx, _params) {
    throw RpcError.notImplemented("authservice.user_totp_disable");
  },
  async loginMfa(_ctx, _params) {
    throw RpcError.notImplemented("authservice.login_mfa");
  },
  async begin2faRecovery(_ctx, _params) {
    throw RpcError.notImplemented("authservice.begin_2fa_recovery");
  },
  async poll2faRecovery(_ctx, _params) {
    throw RpcError.notImplemented("authservice.poll_2fa_recovery");
  },
  async requestPasswordReset(_ctx, _params) {
    throw RpcError.notImplemented("authservice.request_password_reset");
  },
  async resetPassword(_ctx, _params) {
    throw RpcError.notImplemented("authservice.reset_password");
  },
  async logout(_ctx, _params) {
    throw RpcError.notImplemented("authservice.logout");
  },
  async handleRecoveryWebhook(_ctx, _params) {
    throw RpcError.notImplemented("authservice.handle_recovery_webhook");
  },
};
