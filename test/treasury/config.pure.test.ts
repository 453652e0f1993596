import { expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";

const production = {
  NODE_ENV: "production",
  ENCRYPTION_KEY: "a".repeat(64),
  WEBHOOK_SECRET: "a secret of our own",
};

test("treasury defaults: sandbox funding on outside production, 0.5% fees, 60-second quotes", () => {
  expect(loadConfig({}).treasury).toEqual({
    sandboxFunding: true,
    externalFeePercent: 0.5,
    exchangeFeePercent: 0.5,
    quoteTtlS: 60,
  });
});

test("production turns sandbox funding off unless TREASURY_SANDBOX_FUNDING=1 says otherwise", () => {
  expect(loadConfig(production).treasury.sandboxFunding).toBe(false);
  expect(loadConfig({ ...production, TREASURY_SANDBOX_FUNDING: "1" }).treasury.sandboxFunding).toBe(true);
  expect(loadConfig({ TREASURY_SANDBOX_FUNDING: "0" }).treasury.sandboxFunding).toBe(false);
});

test("fees and quote lifetime are configurable and validated", () => {
  const c = loadConfig({
    TREASURY_EXTERNAL_FEE_PERCENT: "1.25",
    TREASURY_EXCHANGE_FEE_PERCENT: "0",
    TREASURY_QUOTE_TTL_S: "30",
  });
  expect(c.treasury).toMatchObject({ externalFeePercent: 1.25, exchangeFeePercent: 0, quoteTtlS: 30 });
  for (const bad of ["-1", "100", "0.12345", "abc"]) {
    expect(() => loadConfig({ TREASURY_EXTERNAL_FEE_PERCENT: bad })).toThrow(ConfigError);
  }
  expect(() => loadConfig({ TREASURY_QUOTE_TTL_S: "0" })).toThrow(ConfigError);
});
