import type { UserRole } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * The roles a user has after an administrator grants (`administrator` true) or withdraws the admin role, or the
 * refusal: nothing to change, or withdrawing it from the last active administrator (there is always one).
 */
export function adminRoleChange(
  roles: readonly UserRole[],
  administrator: boolean,
  otherActiveAdmins: number,
): UserRole[] | Refusal<"InvalidState"> {
  const isAdmin = roles.includes("admin");
  if (administrator === isAdmin) {
    return refuse(
      "InvalidState",
      administrator ? "the user is an administrator already" : "the user is no administrator",
    );
  }
  if (!administrator && otherActiveAdmins === 0) {
    return refuse("InvalidState", "the last administrator cannot be demoted");
  }
  return administrator ? [...roles, "admin"] : roles.filter((role) => role !== "admin");
}
