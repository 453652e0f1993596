import { MEMBER, passesCompanyRole } from "../../codegen/authorization.ts";

/**
 * Who an `x-auth` mode admits, as a set of caller kinds: a user's API key or session, holding one company role or
 * none; an administrator's session; a reseller key; the provider's signed webhook. `company:<role>` admits the users
 * whose role passes (codegen/authorization.ts, the dispatcher's rule) and administrators' sessions.
 */
function admitted(auth: string, roles: string[]): Set<string> {
  const users = (credentials: string[]) => credentials.flatMap((c) => ["none", ...roles].map((role) => `${c}:${role}`));
  const all = [...users(["key", "session"]), "admin-session", "partner", "webhook"];
  if (auth === "anonymous") return new Set([...all, "anonymous"]);
  if (auth === "user") return new Set([...users(["key", "session"]), "admin-session"]);
  if (auth === "session") return new Set([...users(["session"]), "admin-session"]);
  if (auth === "admin") return new Set(["admin-session"]);
  if (auth === "partner" || auth === "webhook") return new Set([auth]);
  if (auth.startsWith("company:")) {
    const required = auth.slice("company:".length);
    const passing = roles.filter((role) => passesCompanyRole(required, [role]));
    return new Set([...["key", "session"].flatMap((c) => passing.map((role) => `${c}:${role}`)), "admin-session"]);
  }
  return new Set([`unknown:${auth}`]);
}

/** How `x-auth` moved: `tightened` (some caller admitted before is refused now), `loosened`, `changed` or `same`. */
export function compareAuth(oldAuth: string, newAuth: string): "same" | "tightened" | "loosened" | "changed" {
  if (oldAuth === newAuth) return "same";
  const named = [oldAuth, newAuth].filter((a) => a.startsWith("company:")).map((a) => a.slice(8));
  const roles = [...new Set(["founder", "director", "other", ...named.filter((r) => r !== MEMBER)])];
  const before = admitted(oldAuth, roles);
  const after = admitted(newAuth, roles);
  const keepsAll = [...before].every((c) => after.has(c));
  const addsSome = [...after].some((c) => !before.has(c));
  if (keepsAll) return addsSome ? "loosened" : "same";
  return addsSome ? "changed" : "tightened";
}
