import type { CompanyServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { setAnonymity } from "./company-service/anonymity.ts";
import { create } from "./company-service/create.ts";
import { getCompanyEncryptedKey, storeCompanyKeypair } from "./company-service/keys.ts";
import { remove, update } from "./company-service/profile.ts";
import { get, getCard, getKeyStatus, list } from "./company-service/reads.ts";

/**
 * CompanyService (issue 16): registration (create.ts over src/services/shared/company-registration.ts, shared with
 * formation drafts and reseller requests), reads and the card (reads.ts), profile and deletion (profile.ts), keys
 * (keys.ts; the key-reading rule in key-access.ts, shared with keypairservice) and anonymity (anonymity.ts). Rules:
 * src/domain/company-registration.ts, company-profile.ts, company-card.ts, company-keys.ts, company-status.ts.
 * Codegen adds a stub here for each new method.
 */
export const companyService: CompanyServiceHandlers<RpcContext> = {
  list,
  create,
  get,
  update,
  delete: remove,
  getCard,
  setAnonymity,
  getKeyStatus,
  getCompanyEncryptedKey,
  storeCompanyKeypair,
};
