import { expect, test } from "vitest";
import type { Client } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { startFinanceApp } from "../support/entities.ts";
import { sql } from "../support/helpers.ts";
import { DATA, insertCompany, person } from "./support.ts";

test.runIf(usingPostgres)(
  "concurrent creates on PostgreSQL: invoice numbers per company are 1..n without gaps or duplicates",
  async () => {
    const t = await startFinanceApp();
    const owner = await t.register("conc-owner@example.org");
    const a = await insertCompany(t, owner.userId);
    const b = await insertCompany(t, owner.userId);
    const dirs = [await person(t, a, "director"), await person(t, a, "director"), await person(t, b, "director")];
    await (await import("./support.ts")).insertRole(t, b, dirs[0]?.resident as string, "director");
    // As a client does: a call the server answered `-32011` (busy: the write-slot wait or a lock timeout, seen on a
    // loaded machine) wrote nothing and is sent again.
    const call = async (send: () => ReturnType<Client["call"]>): Promise<{ ok: boolean }> => {
      for (let attempt = 0; ; attempt++) {
        const r = await send();
        if ("result" in r) return { ok: true };
        if (r.error.code !== -32011 || attempt === 4) return { ok: false };
      }
    };
    const calls: Promise<{ ok: boolean }>[] = [];
    for (let i = 0; i < 120; i++) {
      const who = dirs[i % 3]?.client ?? owner;
      // dirs[0] directs both companies, dirs[1] only a, dirs[2] only b.
      const fzc_id = i % 3 === 0 ? (i % 2 === 0 ? a : b) : i % 3 === 1 ? a : b;
      if (i % 7 === 0) {
        // Refused after taking its number (no address to send to): the rollback must give the number back.
        const data = {
          ...DATA,
          recipient_email: null,
          recipient_entity_type: "company" as const,
          recipient_entity_id: "FZ-2026-Y7",
        };
        calls.push(call(() => who.call("invoiceservice.send_invoice", { fzc_id, data })));
      } else {
        calls.push(call(() => who.call("invoiceservice.create", { fzc_id, data: DATA })));
      }
    }
    const outcomes = await Promise.all(calls);
    const created = outcomes.filter((o) => o.ok).length;
    expect(created).toBe(120 - Math.ceil(120 / 7));
    for (const company of [a, b]) {
      const rows = await sql<{ invoice_number: string }>(
        t,
        `select invoice_number from "zone_invoice" where fzc_id = ? order by invoice_number`,
        [company],
      );
      const numbers = rows.map((r) => Number(r.invoice_number.slice(4)));
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    }
  },
  120_000,
);
