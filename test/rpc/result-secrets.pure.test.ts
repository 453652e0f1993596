import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createRegistry } from "../../src/app/runtime.ts";
import { PROJECT_ROOT } from "../../src/project-root.ts";
import { redactResultSecrets } from "../../src/rpc/result-secrets.ts";

/**
 * Issue 29 item 3: no secret field inside a result leaves the server. Walks the result schema of every method in
 * the served document (records through generic CRUD and every service result), independently of codegen, and
 * finds every property that is marked `x-secret` or whose name says secret. A marked one must be in the method's
 * `resultSecrets` (the dispatcher sets it to null); an unmarked one must be a value its operation hands to its
 * owner on purpose, listed below with the methods that may return it. A new secret-looking field fails here.
 */
type Schema = Record<string, unknown>;
const doc = JSON.parse(readFileSync(join(PROJECT_ROOT, "generated/openrpc/all.json"), "utf8")) as {
  methods: { name: string; result: { schema: Schema } }[];
  components: { schemas: Record<string, Schema> };
};
const schemas = doc.components.schemas;

const SECRET_NAME =
  /pass(word|phrase)|secret|token|api_?key$|private|credential|cvv|cvc|security_answer|backup_code|otpauth|mfa_code|^pin$|_pin$|^pan$/i;

/** Secret-looking fields an operation answers on purpose, with why, and the only methods that may. */
const HANDED_OUT: Record<string, { why: string; methods: string[] }> = {
  access_password: {
    why: "a partner's access password, shown once by the operation that sets it",
    methods: [
      "partnerservice.create_partner",
      "partnerservice.reactivate_partner",
      "partnerservice.rotate_partner_credentials",
    ],
  },
  client_secret: {
    why: "a partner's client secret, shown once by the operation that sets it",
    methods: [
      "partnerservice.create_partner",
      "partnerservice.reactivate_partner",
      "partnerservice.rotate_partner_credentials",
    ],
  },
  access_token: { why: "the session the call opens", methods: sessionMethods() },
  refresh_token: { why: "the session the call opens", methods: sessionMethods() },
  token_type: { why: "the word Bearer", methods: sessionMethods() },
  api_key: {
    why: "a new key, shown once to the owner who makes it",
    methods: [
      "apikeyservice.generate",
      "apikeyservice.generate_personal",
      "apikeyservice.mint_assistant_key",
      "apikeyservice.rotate",
    ],
  },
  backup_codes: { why: "shown once when TOTP is confirmed", methods: ["authservice.user_totp_enroll_confirm"] },
  backup_codes_remaining: { why: "a count", methods: ["authservice.user_totp_verify"] },
  secret: { why: "the TOTP seed, shown once at enrolment", methods: ["authservice.user_totp_enroll_begin"] },
  otpauth_uri: { why: "the TOTP seed as a QR link, at enrolment", methods: ["authservice.user_totp_enroll_begin"] },
  credentials_rotated_at: { why: "a timestamp", methods: [] },
  encrypted_private_key: {
    why: "the owner's own key, sealed under their passphrase, by its owner-only operation",
    methods: ["companyservice.get_company_encrypted_key", "keypairservice.get_encrypted_private_key"],
  },
  has_encrypted_private_key: { why: "a flag", methods: [] },
  needs_password: { why: "a flag", methods: [] },
  password_changed_at: { why: "a timestamp", methods: [] },
  token: {
    why: "the public verification link's token, made to be shared",
    methods: ["verificationservice.create_verification_link"],
  },
};

function sessionMethods(): string[] {
  return ["authservice.login", "authservice.login_mfa", "authservice.refresh_token", "authservice.register"];
}

interface Found {
  path: string[];
  name: string;
  marked: boolean;
}

function secretsIn(schema: unknown, path: string[] = [], stack: string[] = [], out: Found[] = []): Found[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return out;
  const s = schema as Schema;
  const ref = typeof s["$ref"] === "string" ? (s["$ref"] as string).split("/").pop() : undefined;
  if (ref && schemas[ref] && !stack.includes(ref)) secretsIn(schemas[ref], path, [...stack, ref], out);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (s[key] as unknown[] | undefined) ?? []) secretsIn(branch, path, stack, out);
  }
  secretsIn(s["items"], [...path, "*"], stack, out);
  secretsIn(s["additionalProperties"], [...path, "*"], stack, out);
  for (const [name, property] of Object.entries((s["properties"] ?? {}) as Record<string, Schema>)) {
    const marked = property?.["x-secret"] === true;
    if (marked || SECRET_NAME.test(name)) out.push({ path: [...path, name], name, marked });
    if (!marked) secretsIn(property, [...path, name], stack, out);
  }
  return out;
}

const entries = createRegistry();

describe("every result of every method", () => {
  const problems: string[] = [];
  for (const method of doc.methods) {
    const entry = entries.get(method.name);
    const declared = new Set((entry?.resultSecrets ?? []).map((p) => p.join(".")));
    for (const found of secretsIn(method.result.schema)) {
      const at = `${method.name} ${found.path.join(".")}`;
      if (found.marked) {
        if (!declared.has(found.path.join("."))) problems.push(`${at}: x-secret but not redacted`);
        continue;
      }
      const allowed = HANDED_OUT[found.name];
      if (!allowed) problems.push(`${at}: looks secret; mark it x-secret or list it in HANDED_OUT`);
      else if (allowed.methods.length > 0 && !allowed.methods.includes(method.name)) {
        problems.push(`${at}: ${found.name} is handed out only by ${allowed.methods.join(", ")}`);
      }
    }
  }

  test("holds no secret field that is neither redacted nor handed out on purpose", () => {
    expect(problems).toEqual([]);
  });

  test("the walk finds the invoice's security answer, through generic CRUD and the invoice service", () => {
    for (const name of ["zoneinvoice.get", "zoneinvoice.find", "invoiceservice.get", "invoiceservice.list"]) {
      const method = doc.methods.find((m) => m.name === name);
      expect(
        secretsIn(method?.result.schema)
          .filter((f) => f.marked)
          .map((f) => f.name),
      ).toEqual(["security_answer"]);
    }
  });
});

describe("redactResultSecrets", () => {
  test("sets each path to null, through arrays and maps, and copies instead of changing the answer", () => {
    const answer = {
      items: [{ pi: { answer: "enc:1", q: "colour?" } }, { pi: null }, { other: 1 }],
      byKey: { a: { answer: "x" }, b: { answer: "y" } },
    };
    const before = structuredClone(answer);
    const out = redactResultSecrets(answer, [
      ["items", "*", "pi", "answer"],
      ["byKey", "*", "answer"],
    ]);
    expect(out).toEqual({
      items: [{ pi: { answer: null, q: "colour?" } }, { pi: null }, { other: 1 }],
      byKey: { a: { answer: null }, b: { answer: null } },
    });
    expect(answer).toEqual(before);
  });

  test("a missing or null container is left as it is", () => {
    expect(redactResultSecrets({ pi: null }, [["pi", "answer"]])).toEqual({ pi: null });
    expect(redactResultSecrets({}, [["pi", "answer"]])).toEqual({});
    expect(redactResultSecrets(null, [["pi", "answer"]])).toBeNull();
  });
});
