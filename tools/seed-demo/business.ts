import { DemoError } from "./client.ts";
import type { Member } from "./formation.ts";
import { DEMO_PASSWORD, INVOICES, PROPOSAL, VOTES } from "./plan.ts";
import type { SeedLine } from "./seed.ts";

/** The company's invoices, by description: each made as a draft, then sent and paid as INVOICES says. */
export async function ensureInvoices(director: Member, companyId: string): Promise<SeedLine[]> {
  const s = director.session;
  const existing = (await s.ok("invoiceservice.list", { fzc_id: companyId })).items;
  const lines: SeedLine[] = [];
  for (const invoice of INVOICES) {
    const found = existing.find((i) => i.description === invoice.data.description);
    const label = (n: string) => `invoice ${n} "${invoice.data.description}" of ${companyId}`;
    if (found) {
      lines.push({ created: false, text: `${label(found.invoice_number)} (${found.status})` });
      continue;
    }
    const draft = await s.ok("invoiceservice.create", { fzc_id: companyId, data: invoice.data });
    if (invoice.status !== "draft") await s.ok("invoiceservice.send_draft", { invoice_id: draft.sid });
    if (invoice.status === "paid") {
      await s.ok("invoiceservice.mark_paid", {
        invoice_id: draft.sid,
        payment_method: "bank_transfer",
        payment_reference: `DEMO-${draft.invoice_number}`,
      });
    }
    lines.push({ created: true, text: `${label(draft.invoice_number)} (${invoice.status})` });
  }
  return lines;
}

/** The cooperative's proposal, by title, and one vote by each member VOTES names (a vote already cast stays). */
export async function ensureProposal(members: Member[], companyId: string): Promise<SeedLine[]> {
  const [proposer] = members;
  if (!proposer) throw new DemoError("no member to propose");
  const listed = (await proposer.session.ok("governanceservice.list_proposals", { company_id: companyId })).items;
  let proposal = listed.find((p) => p.title === PROPOSAL.title);
  const lines: SeedLine[] = [];
  const label = `proposal "${PROPOSAL.title}" of ${companyId}`;
  if (proposal) lines.push({ created: false, text: `${label} (${proposal.status})` });
  else {
    proposal = await proposer.session.ok("governanceservice.create_proposal", { company_id: companyId, ...PROPOSAL });
    lines.push({ created: true, text: `${label} (open for ${PROPOSAL.voting_days} days)` });
  }
  const { votes } = await proposer.session.ok("governanceservice.get_proposal", { proposal_id: proposal.sid });
  for (const m of members) {
    const value = VOTES[m.person.key as keyof typeof VOTES];
    if (!value) continue;
    const cast = votes.find((v) => v.voter_id === m.residentId);
    if (cast) {
      lines.push({ created: false, text: `vote "${cast.vote_value}" of ${m.person.email} on "${PROPOSAL.title}"` });
      continue;
    }
    await m.session.ok("governanceservice.cast_vote", {
      proposal_id: proposal.sid,
      voter_id: m.residentId,
      vote_value: value,
      password: DEMO_PASSWORD,
    });
    lines.push({ created: true, text: `vote "${value}" of ${m.person.email} on "${PROPOSAL.title}"` });
  }
  return lines;
}
