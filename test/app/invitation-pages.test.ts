import { createHash } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HAS_CHROMIUM, launch } from "../console/support.ts";
import {
  COMPANY_FORM,
  emailLink,
  formCompany,
  journeyCast,
  type Resident,
  signHash,
  signInAgain,
} from "../journeys/support.ts";
import { type Served, serveOnPort } from "../mcp/support.ts";
import { PASSWORD } from "../support/app.ts";

// Issue 30: the links of the invitation emails (`/invitations/<id>`, `/shareholder-invite?token=`) open pages that
// sign the invitee in and answer through the API, like /verify-email. Set-up through public operations only.

const cast = journeyCast({ ann: {}, bea: {}, cal: {} });
let companyId = "";

beforeAll(async () => {
  // Bea directs Ann's company, so she may invite shareholders (her formation invitation accepted over the API).
  const formed = await formCompany(cast.zone, { resident: cast.ann, units: 100 }, [
    { resident: cast.bea, units: 0, role: "director" },
  ]);
  companyId = formed.companyId;
}, 120_000);

let drafts = 0;
/** Ann's draft with `invitee` on the cap table, finalized: the invitation email is sent. Answers the draft id. */
async function inviteToFormation(invitee: Resident): Promise<string> {
  drafts += 1;
  const ann = cast.ann.client;
  const draft = await ann.callOk("entitydraftservice.create_draft", {
    entity_type: "company",
    entity_name: `Linked Works ${drafts} FZC`,
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_FORM),
    shareholders: [
      { name: cast.ann.name, email: cast.ann.email, resident_id: null, units: 60, role: "shareholder" },
      { name: invitee.name, email: invitee.email, resident_id: null, units: 40, role: "shareholder" },
    ],
  });
  await ann.callOk("entitydraftservice.finalize_draft", { draft_id: draft.sid });
  return draft.sid;
}

async function invitationOf(invitee: Resident, draftId: string) {
  const mine = await invitee.client.callOk("entitydraftservice.get_my_invitations");
  const found = mine.items.find((i) => i.draft_id === draftId);
  if (!found) throw new Error(`no invitation of ${invitee.email} to ${draftId}`);
  return found;
}

/** Bea (a director) invites `email` to take up `units`; answers the email's link. */
async function inviteShareholder(email: string, units: number): Promise<string> {
  await cast.bea.client.callOk("shareholderservice.invite_shareholder", {
    company_id: companyId,
    inviter_id: cast.bea.residentId,
    invitee_email: email,
    proposed_units: units,
  });
  return emailLink(cast.zone, email, "shareholder_invite");
}

const unitsOf = async (residentId: string) =>
  (await cast.ann.client.callOk("companyservice.get", { company_id: companyId })).shareholders
    .filter((s) => s.resident_id === residentId)
    .reduce((sum, s) => sum + s.units, 0);

describe("the invitation links open pages", () => {
  test("the formation invitation email's link answers 200 with the page, the same text for every invitation", async () => {
    const draftId = await inviteToFormation(cast.cal);
    const link = await emailLink(cast.zone, cast.cal.email, "entity_invitation");
    const invitation = await invitationOf(cast.cal, draftId);
    expect(link).toBe(`http://localhost:8080/invitations/${invitation.sid}`);
    const { t } = cast.zone;
    const one = await t.app.fetch(new Request(link));
    const other = await t.app.fetch(new Request("http://localhost:8080/invitations/some-other-id"));
    expect(one.status).toBe(200);
    const html = await one.text();
    expect(await other.text()).toBe(html);
    expect(html).not.toContain(invitation.sid);
    expect(html).toContain("<h1>Formation invitation</h1>");
    expectSelfContained(one, html);
  });

  test("the shareholder invitation email's link answers 200 with the page; the token is not in it", async () => {
    const link = await inviteShareholder("not-yet-registered@example.org", 1);
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(link).toMatch(/^http:\/\/localhost:8080\/shareholder-invite\?token=fzi_/);
    const { t } = cast.zone;
    const one = await t.app.fetch(new Request(link));
    const other = await t.app.fetch(new Request("http://localhost:8080/shareholder-invite?token=fzi_other"));
    expect(one.status).toBe(200);
    const html = await one.text();
    expect(await other.text()).toBe(html);
    expect(html).not.toContain(token);
    expect(html).toContain("<h1>Shareholder invitation</h1>");
    expectSelfContained(one, html);
  });
});

/** The page allows its own inline script and style by hash and nothing else, as /verify-email. */
function expectSelfContained(response: Response, html: string): void {
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  expect(response.headers.get("content-security-policy")).toBe(
    [
      "default-src 'none'",
      `script-src ${hash(script)}`,
      `style-src ${hash(style)}`,
      "connect-src 'self'",
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  expect(html.match(/<script/g)).toHaveLength(1);
  expect(html).not.toMatch(/\s(src|href|style|on\w+)=/);
  expect(html).not.toMatch(/https?:\/\//);
}

if (!HAS_CHROMIUM) console.warn("test/app/invitation-pages.test.ts: browser part skipped, /usr/bin/chromium is absent");

describe.skipIf(!HAS_CHROMIUM)("the invitation pages in headless Chromium", () => {
  let served: Served;
  let browser: Browser;
  const problems: string[] = [];
  beforeAll(async () => {
    served = await serveOnPort(cast.zone.t.app.hono);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** A fresh browser context (no memory of earlier pages) on the email's link, served by the app under test. */
  async function open(link: string): Promise<Page> {
    const url = new URL(link);
    const page = await (await browser.newContext()).newPage();
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    await page.goto(`${served.url}${url.pathname}${url.search}`);
    return page;
  }
  async function signIn(page: Page, who: Resident): Promise<void> {
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  const statusText = async (page: Page, contains: string) => {
    const status = page.locator("#status", { hasText: contains });
    await status.waitFor();
    return status.textContent();
  };

  test("formation: a wrong account is sent back to sign in; the invitee reads the documents and signs", async () => {
    const bea = cast.bea;
    const draftId = await inviteToFormation(bea);
    const invitation = await invitationOf(bea, draftId);
    const page = await open(await emailLink(cast.zone, bea.email, "entity_invitation"));
    expect(page.url()).toBe(`${served.url}/invitations/${invitation.sid}`);
    await signIn(page, cast.cal);
    await statusText(page, "not addressed to the account you signed in with");
    expect(await page.getByLabel("Email").isVisible()).toBe(true);
    await signIn(page, bea);
    await page
      .getByText(`formation documents of ${invitation.entity_name} as shareholder with 40 share units`)
      .waitFor();
    const docs = await bea.client.callOk("entitydraftservice.get_invitation_documents", {
      invitation_id: invitation.sid,
    });
    expect(await page.locator("#signing-hash").textContent()).toBe(docs.signing_hash);
    expect(await page.locator("#documents").textContent()).toContain(docs.documents[0]?.content.slice(0, 40) ?? "?");
    // Bea's resident holds a key: the page asks for the signature her key makes; Cal's key does not verify.
    const signature = page.getByLabel("Your signature");
    await signature.fill(signHash(cast.cal.keys, docs.signing_hash));
    await page.getByRole("button", { name: "Accept and sign" }).click();
    await statusText(page, "does not verify");
    expect((await invitationOf(bea, draftId)).status).toBe("pending");
    await signature.fill(signHash(bea.keys, docs.signing_hash));
    await page.getByRole("button", { name: "Accept and sign" }).click();
    expect(await statusText(page, "You accepted")).toContain(invitation.entity_name);
    expect(await page.locator("#invitation").isHidden()).toBe(true);
    expect(await invitationOf(bea, draftId)).toMatchObject({ status: "accepted", signature_id: expect.any(String) });
    const progress = await cast.ann.client.callOk("entitydraftservice.get_draft_status", { draft_id: draftId });
    expect(progress).toMatchObject({ completed_signatures: 1, total_required_signatures: 1 });

    // The same link again: answered already, nothing more written.
    const again = await open(await emailLink(cast.zone, bea.email, "entity_invitation"));
    await signIn(again, bea);
    await statusText(again, "You already accepted this invitation.");
    expect(await again.locator("#invitation").isHidden()).toBe(true);
    expect(
      (await cast.ann.client.callOk("entitydraftservice.get_draft_status", { draft_id: draftId })).completed_signatures,
    ).toBe(1);
  });

  test("formation: the invitee declines with a reason the founder reads", async () => {
    const cal = cast.cal;
    const draftId = await inviteToFormation(cal);
    const page = await open(await emailLink(cast.zone, cal.email, "entity_invitation"));
    await signIn(page, cal);
    await page.getByLabel("Reason for declining").fill("Not this year.");
    await page.getByRole("button", { name: "Decline" }).click();
    await statusText(page, "You declined the invitation");
    expect(await invitationOf(cal, draftId)).toMatchObject({ status: "rejected", decline_reason: "Not this year." });
  });

  test("shareholder: the invitee picks its resident and accepts; the link used again is refused, nothing written", async () => {
    const cal = cast.cal;
    const link = await inviteShareholder(cal.email, 25);
    const page = await open(link);
    // The token left the address bar at once.
    expect(page.url()).toBe(`${served.url}/shareholder-invite`);
    await signIn(page, cal);
    await page.getByLabel("The resident that takes the units up").selectOption(cal.residentId);
    await page.getByRole("button", { name: "Accept" }).click();
    expect(await statusText(page, "You accepted")).toContain(`25 share units are issued to ${cal.residentId}`);
    expect(await unitsOf(cal.residentId)).toBe(25);

    const again = await open(link);
    await signIn(again, cal);
    await again.getByRole("button", { name: "Accept" }).click();
    await statusText(again, "This invitation was already answered.");
    expect(await again.getByRole("button", { name: "Accept" }).isHidden()).toBe(true);
    expect(await unitsOf(cal.residentId)).toBe(25);
  });

  test("shareholder: the invitee declines", async () => {
    const ann = cast.ann;
    const link = await inviteShareholder(ann.email, 10);
    const page = await open(link);
    await signIn(page, ann);
    await page.getByRole("button", { name: "Decline" }).click();
    await statusText(page, "You declined the invitation.");
    const pending = await cast.bea.client.callOk("shareholderservice.list_invites", { company_id: companyId });
    expect(pending.items.filter((i) => i.invitee_email === ann.email)).toEqual([]);
    expect(await unitsOf(ann.residentId)).toBe(100);
  });

  test("expired links: both pages say so, nothing written", async () => {
    const draftId = await inviteToFormation(cast.bea);
    const formationLink = await emailLink(cast.zone, cast.bea.email, "entity_invitation");
    const shareLink = await inviteShareholder(cast.cal.email, 5);
    // Past both the 30-day signature deadline and the 14-day invitation expiry.
    cast.zone.t.clock.advance(31 * 86_400);
    await signInAgain(cast.zone, cast.ann, cast.bea, cast.cal);
    // What the sweep does within a minute, done now by the administrator.
    await cast.zone.admin.callOk("entitydraftservice.expire_drafts");

    const formation = await open(formationLink);
    await signIn(formation, cast.bea);
    await statusText(formation, "This invitation has expired.");
    expect(await formation.locator("#invitation").isHidden()).toBe(true);
    expect((await invitationOf(cast.bea, draftId)).status).not.toBe("accepted");

    const share = await open(shareLink);
    await signIn(share, cast.cal);
    await share.getByRole("button", { name: "Accept" }).click();
    await statusText(share, "This invitation has expired.");
    expect(await unitsOf(cast.cal.residentId)).toBe(25);
    expect(problems).toEqual([]);
  });
});
