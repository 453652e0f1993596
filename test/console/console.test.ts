import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { toolsetPatterns } from "../../src/mcp/toolsets.ts";
import { enrolTotp, totpNow } from "../identity/support.ts";
import { mcpClient, type Served, serveOnPort } from "../mcp/support.ts";
import { createResident } from "../residents/support.ts";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { axeSerious, describeViolations, ensureConsoleBuilt, HAS_CHROMIUM, launch, SCREENSHOTS } from "./support.ts";

/**
 * The console end to end in headless Chromium against a real app on an ephemeral port: one browser for the file,
 * the tests in order on one signed-in page (sign in, keys, an approval over /mcp, the explorer, accessibility).
 */
const TOOL = "freezone_residentservice_list";
/** The key's approval-required pattern: every resident tool waits for the owner. */
const PATTERN = "freezone_residentservice_*";
let t: TestApp;
let served: Served;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let owner: Client;
let agentKey = "";
const clients: McpClient[] = [];
/** CSP refusals and page errors seen by the browser: the console must cause none. */
const problems: string[] = [];

/** A full-page PNG under docs/screenshots/; a freshly shown key is masked. */
const shot = (name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, mask: [page.locator("input.secret")] });
const heading = (name: string) => page.getByRole("heading", { level: 1, name });
const signInForm = () => page.getByRole("form", { name: "Sign in" });

async function signIn(email: string, password: string): Promise<void> {
  await page.goto(`${served.url}/console/`);
  await heading("Sign in").waitFor();
  await signInForm().getByLabel("Email").fill(email);
  await signInForm().getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

if (!HAS_CHROMIUM) console.warn("test/console/console.test.ts: skipped, /usr/bin/chromium is absent");

describe.skipIf(!HAS_CHROMIUM)("web console in headless Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureConsoleBuilt();
    t = await startTestApp({ accessTokenTtlS: 7 * 24 * 3600 });
    served = await serveOnPort(t.app.hono);
    owner = await t.register("ada@example.org");
    await createResident(owner);
    const admin = await t.admin();
    await admin.callOk("creditservice.add_bonus", { user_id: owner.userId, amount: 12.5, description: "welcome" });
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy|Refused/.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await browser?.close();
    await served?.close();
    await t?.close();
  });

  test("a wrong password is shown in place and the form keeps its content", async () => {
    await signIn("ada@example.org", "not the password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Error -32001");
    expect(await signInForm().getByLabel("Email").inputValue()).toBe("ada@example.org");
    expect(await signInForm().getByLabel("Password").inputValue()).toBe("not the password");
    await shot("sign-in-error");
  });

  test("sign in: home shows the user's residents with their subscription status", async () => {
    await signInForm().getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading("Home").waitFor();
    const residents = page.getByRole("region", { name: "Residents" });
    await residents.getByText("Ada Lovelace").waitFor();
    expect(await residents.textContent()).toContain("Your residents (1)");
    await page.getByRole("region", { name: "Account" }).getByText("ada@example.org").waitFor();
    // What the user holds beyond what it owns (issue 32 item 14): the balance, roles, open invoices, open votes.
    await page.getByRole("region", { name: "Credit balance" }).getByText("12.50 USD").waitFor();
    for (const [region, caption] of <[string, string][]>[
      ["Holdings", "Shares and roles your residents hold (0)"],
      ["Open invoices", "Invoices your companies sent that are not paid (0)"],
      ["Proposals open for a vote", "Proposals in their voting period (0)"],
    ]) {
      expect(await page.getByRole("region", { name: region }).textContent()).toContain(caption);
    }
    await shot("home");
  });

  test("create an agent key with an approval-required pattern: a refusal keeps the form, then the key shows once", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await heading("API keys").waitFor();
    const form = page.getByRole("form", { name: "Create a key" });
    await form.getByLabel("Key name").fill("bookkeeper agent");
    await form.getByLabel("Agent key (MCP, bound by a tier policy)").check();
    await form.getByLabel("MCP scope").selectOption("read");
    // A ready-made toolset fills the allowed patterns (and can be cleared again).
    await form.getByLabel("Toolset").selectOption("invoicing");
    expect(await form.getByLabel("Allowed tool patterns").inputValue()).toBe(toolsetPatterns(["invoicing"]));
    await form.getByLabel("Allowed tool patterns").fill("");
    await form.getByLabel("Approval-required tool patterns").fill(PATTERN);
    await form.getByLabel("Calls per hour").fill("30");
    await form.getByLabel("Your password").fill("wrong password 1");
    await form.getByRole("button", { name: "Create key" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    const text = (await alert.textContent()) ?? "";
    expect(text).toContain("Error -32002");
    expect(text).toContain("WrongPassword");
    // Nothing typed is lost.
    expect(await form.getByLabel("Key name").inputValue()).toBe("bookkeeper agent");
    expect(await form.getByLabel("Approval-required tool patterns").inputValue()).toBe(PATTERN);
    expect(await form.getByLabel("Calls per hour").inputValue()).toBe("30");
    expect(await form.getByLabel("Agent key (MCP, bound by a tier policy)").isChecked()).toBe(true);

    await form.getByLabel("Your password").fill(PASSWORD);
    await form.getByRole("button", { name: "Create key" }).click();
    const shown = form.getByLabel("Your new API key");
    await shown.waitFor();
    agentKey = await shown.inputValue();
    expect(agentKey).toMatch(/^fz_u_/);
    const keys = await owner.callOk("apikeyservice.list_personal");
    expect(keys.items).toHaveLength(1);
    expect(keys.items[0]).toMatchObject({
      name: "bookkeeper agent",
      mcp_scope: "read",
      approval_required_tools: PATTERN,
      max_calls_per_hour: 30,
    });
    await page.getByRole("region", { name: "Your keys" }).getByText("agent (read)").waitFor();
    await shot("keys");
  });

  test("the list tells keys apart by prefix and last four; the policy is edited in place (issue 32 item 14)", async () => {
    const region = page.getByRole("region", { name: "Your keys" });
    await region.getByText(`fz_u_…${agentKey.slice(-4)}`).waitFor();
    await region.getByRole("button", { name: "Policy" }).click();
    const form = page.getByRole("form", { name: "Policy of bookkeeper agent" });
    expect(await form.getByLabel("Calls per hour (0: none)").inputValue()).toBe("30");
    await form.getByLabel("Calls per day (0: none)").fill("400");
    await form.getByLabel("Your password").fill(PASSWORD);
    await form.getByRole("button", { name: "Save the policy" }).click();
    await form.getByText(/^Saved/).waitFor();
    const keys = await owner.callOk("apikeyservice.list_personal");
    expect(keys.items[0]).toMatchObject({
      name: "bookkeeper agent",
      mcp_scope: "read",
      approval_required_tools: PATTERN,
      max_calls_per_hour: 30,
      max_calls_per_day: 400,
      last_four: agentKey.slice(-4),
    });
  });

  test("a call over /mcp waits for approval; approved in the browser, history shows approved_executed", async () => {
    const client = await mcpClient(served.url, agentKey);
    clients.push(client);
    const asked = await client.callTool({ name: TOOL, arguments: { page: 1, page_size: 20 } });
    const pending = asked.structuredContent as { status: string; approval_id: string };
    expect(pending.status).toBe("pending_approval");

    const asStored = await owner.callOk("mcpapprovalservice.get", { approval_id: pending.approval_id });
    await page.getByRole("link", { name: "Approvals" }).click();
    await heading("Approvals").waitFor();
    // The navigation counts what waits (issue 32 item 11).
    const count = page.locator("#nav .badge.count");
    await count.waitFor();
    expect(await count.textContent()).toBe("1");
    const card = page.getByRole("article", { name: `Approval ${pending.approval_id}` });
    // The card: the tool's title, the key that asked, the tool name, the amount the dry run measured.
    await card.getByRole("heading", { name: asStored.tool_title }).waitFor();
    expect(await card.textContent()).toContain('"page_size": 20');
    expect(await card.textContent()).toContain(`key “bookkeeper agent”`);
    expect(await card.textContent()).toContain(TOOL);
    await shot("approvals-pending");
    await card.getByRole("button", { name: "Approve" }).click();
    const history = page.getByRole("region", { name: "History" });
    await history.getByText("approved_executed").waitFor();
    expect(await history.textContent()).toContain(asStored.tool_title);
    const stored = await owner.callOk("mcpapprovalservice.get", { approval_id: pending.approval_id });
    expect(stored.status).toBe("approved_executed");
    expect(JSON.parse(stored.result_json ?? "{}").total).toBe(1);
    expect(await page.getByRole("region", { name: "Pending approvals" }).textContent()).toContain(
      "Nothing waits for your approval.",
    );
  });

  test("the key's call log lists the parked call and its approved replay", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Call log" }).click();
    const log = page.getByRole("table", { name: 'Calls made with "bookkeeper agent"' });
    await log.waitFor();
    const rows = log.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain(TOOL);
  });

  test("reject with a reason; a call its dry run refuses parks nothing; rotate and revoke the key", async () => {
    const client = clients[0]!;
    const ask = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      return (r.structuredContent as { approval_id: string }).approval_id;
    };
    const first = await ask(TOOL, { page: 1, page_size: 5 });
    // A call its dry run already refuses is answered at once and parks nothing (src/mcp/execute.ts `park`); a replay
    // failing later (the state changed meanwhile) is walked in test/journeys/agent-approval.test.ts.
    const missing = await client.callTool({
      name: "freezone_residentservice_get",
      arguments: { resident_id: "FZ-2026-RA999999" },
    });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("NotFound");
    await page.getByRole("link", { name: "Approvals" }).click();
    const refused = page.getByRole("article", { name: `Approval ${first}` });
    await refused.getByLabel("Reason for rejecting").fill("not today");
    await refused.getByRole("button", { name: "Reject" }).click();
    const history = page.getByRole("region", { name: "History" });
    await history.getByText("not today").waitFor();
    expect((await owner.callOk("mcpapprovalservice.get", { approval_id: first })).status).toBe("rejected");

    await shot("approvals-history");

    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Rotate" }).click();
    const rotate = page.getByRole("form", { name: "Rotate bookkeeper agent" });
    await rotate.getByLabel("Your password").fill(PASSWORD);
    await rotate.getByRole("button", { name: "Rotate key" }).click();
    const rotated = await rotate.getByLabel("Your new API key").inputValue();
    expect(rotated).toMatch(/^fz_u_/);
    expect(rotated).not.toBe(agentKey);

    await page.getByRole("button", { name: "Revoke", exact: true }).click();
    const revoke = page.getByRole("form", { name: "Revoke bookkeeper agent" });
    await revoke.getByLabel("Your password").fill(PASSWORD);
    await revoke.getByRole("button", { name: "Revoke key" }).click();
    await revoke.getByText("Revoked.").waitFor();
    const keys = await owner.callOk("apikeyservice.list_personal");
    expect(keys.items.map((k) => k.is_active)).toEqual([false, false]);
    await page
      .getByRole("region", { name: "Your keys" })
      .getByRole("button", { name: "Revoke", exact: true })
      .waitFor({ state: "detached" });
  });

  test("API explorer: raw record services hidden unless asked for, a search across services (issue 32 item 14)", async () => {
    await page.getByRole("link", { name: "API explorer" }).click();
    await heading("API explorer").waitFor();
    const domain = page.getByLabel("Domain", { exact: true });
    await domain.selectOption("platform");
    const services = page.getByLabel("Service", { exact: true });
    await services.locator("option").first().waitFor({ state: "attached" });
    const names = async () => services.locator("option").allTextContents();
    expect(await names()).not.toContain("AdminAction");
    expect(await names()).toContain("McpApprovalService");
    await page.getByLabel("Show generic record operations").check();
    await services.locator("option", { hasText: "AdminAction" }).waitFor({ state: "attached" });
    await page.getByLabel("Show generic record operations").uncheck();
    // The internal sweep is never listed, even searched for by name.
    await page.getByLabel("Search all services").fill("expire_stale");
    await page.getByRole("list", { name: "Methods" }).getByText("No method matches.").waitFor();
    // Words match names and summaries across every service of the domain.
    await page.getByLabel("Search all services").fill("pending approvals");
    await page.getByRole("button", { name: "mcpapprovalservice.list_pending", exact: true }).waitFor();
    await page.getByLabel("Search all services").fill("");
    await domain.selectOption("identity");
  });

  test("API explorer: a method's form from its schema, an error in place with the input kept, copy as curl", async () => {
    await page.getByRole("link", { name: "API explorer" }).click();
    await heading("API explorer").waitFor();
    await page.getByLabel("Domain", { exact: true }).selectOption("identity");
    await page.getByLabel("Service", { exact: true }).selectOption("ResidentService");
    await page.getByRole("button", { name: "residentservice.get", exact: true }).click();
    const form = page.getByRole("form", { name: "Call residentservice.get" });
    const input = form.getByLabel("resident_id (required)");
    await input.fill("FZ-2026-RA999999");
    await form.getByRole("button", { name: "Call" }).click();
    const alert = page.getByRole("region", { name: "Method" }).getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Error -32003");
    expect(await input.inputValue()).toBe("FZ-2026-RA999999");
    await form.getByRole("button", { name: "Copy as curl" }).click();
    const curl = page.locator("pre.curl");
    await curl.waitFor();
    const text = (await curl.textContent()) ?? "";
    expect(text).toContain('"method":"residentservice.get"');
    expect(text).toContain('"params":{"resident_id":"FZ-2026-RA999999"}');
    expect(text).toContain("/freezone/identity/rpc");
    expect(text).toContain("$FZ_TOKEN");

    // A nested object param (data) becomes a fieldset; a successful call shows its result.
    await page.getByRole("button", { name: "residentservice.list", exact: true }).click();
    const list = page.getByRole("form", { name: "Call residentservice.list" });
    await list.getByLabel("page (required)").fill("1");
    await list.getByLabel("page_size (required)").fill("10");
    await list.getByRole("button", { name: "Call" }).click();
    await page
      .locator("pre.result")
      .or(page.getByRole("region", { name: "Method" }).getByRole("alert"))
      .waitFor();
    expect(await page.locator("pre.result").textContent()).toContain('"total": 1');
    await shot("explorer");

    // A nested object param (data) is a fieldset of its own fields, enums as selects; a refusal keeps them all.
    await page.getByRole("button", { name: "residentservice.create", exact: true }).click();
    const create = page.getByRole("form", { name: "Call residentservice.create" });
    const data = create.getByRole("group", { name: "data (required)" });
    await data.getByLabel("first_name (required)").fill("Ada");
    await data.getByLabel("last_name (required)").fill("Byron");
    await data.getByLabel("email (required)").fill("ada@example.org");
    await data.getByLabel("phone (required)").fill("+255 700 000 002");
    await data.getByLabel("subscription_plan").selectOption({ label: "1_year" });
    await create.getByRole("button", { name: "Call" }).click();
    const refusal = page.getByRole("region", { name: "Method" }).getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Error -32005 ResidentError\.AlreadyExists/);
    expect(await data.getByLabel("last_name (required)").inputValue()).toBe("Byron");
    expect(await data.getByLabel("subscription_plan").inputValue()).not.toBe("");
  });

  test("accessibility: no serious or critical axe violations on the main pages; focus is visible", async () => {
    for (const [route, title] of [
      ["home", "Home"],
      ["keys", "API keys"],
      ["approvals", "Approvals"],
      ["explorer", "API explorer"],
    ] as const) {
      await page.goto(`${served.url}/console/#/${route}`);
      await heading(title).waitFor();
      if (route === "explorer") {
        await page.getByLabel("Service", { exact: true }).selectOption("ResidentService");
        await page.getByRole("button", { name: "residentservice.create", exact: true }).click();
      }
      const violations = await axeSerious(page);
      expect(describeViolations(violations), route).toEqual([]);
    }
    await page.goto(`${served.url}/console/#/home`);
    await heading("Home").waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(
      "(() => { const s = getComputedStyle(document.activeElement); return [document.activeElement.tagName, s.outlineStyle, s.outlineWidth]; })()",
    );
    expect(outline).toEqual(["A", "solid", "3px"]);
    // The skip link takes focus to the content and stays on the page (the hash is the route).
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("[document.activeElement.id, location.hash]")).toEqual(["main", "#/home"]);
    expect(problems).toEqual([]);
  });

  test("sign out, then sign in with a TOTP step for an account that has it on", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading("Sign in").waitFor();
    const violations = await axeSerious(page);
    expect(describeViolations(violations)).toEqual([]);
    await shot("sign-in");
    const bob = await t.register("bob@example.org");
    const { secret } = await enrolTotp(t, bob);
    await signIn("bob@example.org", PASSWORD);
    await heading("Two-factor sign-in").waitFor();
    await page.getByLabel("Authenticator code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByLabel("Authenticator code").inputValue()).toBe("000000");
    await page.getByLabel("Authenticator code").fill(await totpNow(t, secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await heading("Home").waitFor();
    await page.getByRole("region", { name: "Account" }).getByText("bob@example.org").waitFor();
    expect(problems).toEqual([]);
  });

  test("an expired access token is refreshed once and the page loads; an expired refresh token signs out", async () => {
    const token = () => page.evaluate("JSON.parse(sessionStorage.getItem('fz-console-session')).access_token");
    const before = await token();
    t.clock.advance(8 * 24 * 3600); // past the 7-day access token of this app, within the 30-day refresh token
    await page.goto(`${served.url}/console/#/keys`);
    await heading("API keys").waitFor();
    await page.getByText("Your personal keys: none.").waitFor();
    expect(await token()).not.toBe(before);
    t.clock.advance(40 * 24 * 3600);
    await page.goto(`${served.url}/console/#/approvals`);
    await heading("Sign in").waitFor();
    expect(await page.evaluate("sessionStorage.getItem('fz-console-session')")).toBeNull();
  });

  test("from the sign-in page: create an account, then a reset link and a new verification email (issue 32 item 14)", async () => {
    await heading("Sign in").waitFor();
    await page.getByText("Create an account", { exact: true }).click();
    const signUp = page.getByRole("form", { name: "Create an account" });
    await signUp.getByLabel("Email").fill("carol@example.org");
    await signUp.getByLabel("Password").fill(PASSWORD);
    await signUp.getByLabel("First name").fill("Carol");
    await signUp.getByRole("button", { name: "Create the account" }).click();
    await heading("Home").waitFor();
    await page.getByRole("region", { name: "Account" }).getByText("carol@example.org").waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading("Sign in").waitFor();

    const ask = async (summary: string, button: string, email: string) => {
      await page.getByText(summary, { exact: true }).click();
      const form = page.getByRole("form", { name: summary });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: button }).click();
      await form.getByText(/is on its way/).waitFor();
    };
    await ask("Forgot your password?", "Send a reset link", "carol@example.org");
    await ask("Resend the verification email", "Send it again", "carol@example.org");
    const mails = await sql<{ subject: string }>(
      t,
      "select subject from email_outbox where to_email = ? order by sid",
      ["carol@example.org"],
    );
    // The sign-up's verification email, the reset link, the verification email again.
    expect(mails.length).toBeGreaterThanOrEqual(3);
    expect(problems).toEqual([]);
  });
});
