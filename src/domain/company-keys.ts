/**
 * Who may read a company's encrypted private key (docs/decisions.md "Company keys (issue 16)"): the owner user (the
 * pair user_id, partner_id), a current founder, and a current holder of the company's signing authority. The one
 * rule behind companyservice.get_company_encrypted_key and keypairservice.get_encrypted_private_key for companies.
 * Directors as such, other members, proxies and administrators may not: the key signs for the company.
 */
export interface CompanyKeyReaderFacts {
  /** The caller owns the company by the pair. */
  owns: boolean;
  /** The CompanyRole kinds the caller's residents hold in the company now. */
  roles: readonly string[];
  /** A resident the caller owns holds the company's active signing authority (the SigningAuthority record, issue 17). */
  signingAuthority: boolean;
}

export function mayReadCompanyKey(f: CompanyKeyReaderFacts): boolean {
  return f.owns || f.roles.includes("founder") || f.signingAuthority;
}
