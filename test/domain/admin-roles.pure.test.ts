import { describe, expect, test } from "vitest";
import { adminRoleChange } from "../../src/domain/admin-roles.ts";

describe("adminRoleChange", () => {
  test("grants and withdraws the admin role", () => {
    expect(adminRoleChange(["user"], true, 0)).toEqual(["user", "admin"]);
    expect(adminRoleChange(["user", "admin"], false, 1)).toEqual(["user"]);
  });

  test("never demotes the last active administrator", () => {
    expect(adminRoleChange(["user", "admin"], false, 0)).toMatchObject({ refusal: "InvalidState" });
  });

  test("a change that changes nothing is refused", () => {
    expect(adminRoleChange(["user", "admin"], true, 3)).toMatchObject({ refusal: "InvalidState" });
    expect(adminRoleChange(["user"], false, 3)).toMatchObject({ refusal: "InvalidState" });
  });
});
