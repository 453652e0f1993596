import {
  cleanPatternList,
  KEY_POLICY_DEFAULTS,
  type KeyPolicy,
  PATTERN_FIELDS,
  POLICY_FIELDS,
} from "../domain/key-policy.ts";
import { RpcError } from "../rpc/errors.ts";

/** Policy fields as given in params (absent = not given; mcp_scope may be null to remove MCP access). */
export type PolicyInput = Partial<Record<keyof KeyPolicy, unknown>>;

/** The fields of `input` that name a policy field, with patterns cleaned; InvalidInput names a bad pattern. */
export function policyChanges(input: PolicyInput): Partial<KeyPolicy> {
  const out: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) {
    if (!(field in input) || input[field] === undefined) continue;
    out[field] = input[field];
  }
  for (const field of PATTERN_FIELDS) {
    const value = out[field];
    if (typeof value !== "string") continue;
    const cleaned = cleanPatternList(value);
    if ("error" in cleaned) throw RpcError.app("ApiKeyError", "InvalidInput", `${field}: ${cleaned.error}`, { field });
    out[field] = cleaned.value;
  }
  return out as Partial<KeyPolicy>;
}

/** A new key's policy: the defaults, overridden by what was given. */
export function newPolicy(input: PolicyInput): KeyPolicy {
  return { ...KEY_POLICY_DEFAULTS, ...policyChanges(input) };
}

/** Names are labels: trimmed, and not blank. */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0)
    throw RpcError.app("ApiKeyError", "InvalidInput", "name must not be blank", { field: "name" });
  return trimmed;
}
