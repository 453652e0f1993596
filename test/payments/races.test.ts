import { expect, test } from "vitest";
import { startTestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { count, sql } from "../support/helpers.ts";
import { balanceOf, postVerdict, verdict } from "./support.ts";

test.runIf(usingPostgres)(
  "webhook and administrator confirming at once on PostgreSQL: confirmed once, credited once",
  async () => {
    const t = await startTestApp({ paymentSweepIntervalS: 0 });
    const admin = await t.admin();
    const ada = await t.register("ada@example.org");
    for (let round = 0; round < 10; round++) {
      const p = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
      const results = await Promise.all([
        postVerdict(t, verdict(p.mobilepay_order_id, "succeeded", 10)),
        admin.call("paymentservice.confirm_payment", { payment_id: p.payment_id }),
        postVerdict(t, verdict(p.mobilepay_order_id, "succeeded", 10)),
      ]);
      const adminWon = "result" in results[1];
      if (!adminWon) expect(results[1]).toMatchObject({ error: { data: { variant: "InvalidState" } } });
      expect(await count(t, "credit_transaction", "reference_id = ?", [p.payment_id])).toBe(1);
    }
    expect(await balanceOf(t, ada.userId)).toBe(100);
  },
  120_000,
);

test.runIf(usingPostgres)(
  "concurrent debits below the threshold on PostgreSQL queue exactly one automatic top-up",
  async () => {
    const t = await startTestApp({ paymentSweepIntervalS: 0 });
    const ada = await t.register("ada@example.org");
    const p = await ada.callOk("creditservice.initiate_topup", { amount: 50, provider: "cardpsp" });
    await postVerdict(t, verdict(p.mobilepay_order_id, "succeeded", 50, { payment_method_id: "pm_ada" }));
    await ada.callOk("creditservice.setup_auto_topup", { amount: 20, threshold: 45 });
    const debits = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ada.call("creditservice.deduct", {
          amount: 1,
          description: "load",
          reference_type: "kyc",
          reference_id: `r${i}`,
        }),
      ),
    );
    expect(debits.every((d) => "result" in d)).toBe(true);
    expect(await count(t, "payment", "auto_topup and status = 'pending'")).toBe(1);
    expect(await balanceOf(t, ada.userId)).toBe(30);
    const rows = await sql<{ n: string }>(
      t,
      `select count(*)::text as n from credit_transaction where tx_type = 'deduction'`,
    );
    expect(Number(rows[0]?.n)).toBe(20);
  },
  120_000,
);
