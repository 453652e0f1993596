import { beforeAll, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../support/entities.ts";
import { count } from "../support/helpers.ts";
import { BLOCKED, refusedByStatus, setStatus } from "./support.ts";

// The company status guard on messageservice.create_company_message: a voided or suspended company's director posts
// nothing (InvalidState naming the status, no message, no audience row); an active company's director posts.

let t: TestApp;
let company: string;
let director: { client: Client; resident: string };
beforeAll(async () => {
  t = await startFinanceApp();
  const owner = await t.register("guard-msg-owner@example.org");
  company = await insertCompany(t, owner.userId);
  director = await person(t, company, "director");
});

const writes = async () => ({
  messages: await count(t, "company_message"),
  audiences: await count(t, "document_audience"),
});
const post = () =>
  director.client.call("messageservice.create_company_message", { company_id: company, title: "Hi", body: "All" });

describe("company messages and the company status", () => {
  test.each(BLOCKED)("a %s company's director posts nothing", async (status) => {
    await setStatus(t, company, status);
    await refusedByStatus(writes, post, "MessageError", status);
  });

  test("an active company's director posts", async () => {
    await setStatus(t, company, "active");
    expect("result" in (await post())).toBe(true);
  });
});
