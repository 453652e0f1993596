import type { EntityType } from "../../../../generated/types.ts";
import { findRecordedSignature } from "../../../repos/document-signatures.ts";
import type { RpcContext } from "../../../rpc/context.ts";

/** When documentservice.submit_signed recorded this signature over this hash for the signer; null if it did not. */
export async function recordedAt(
  ctx: RpcContext,
  signer: { entity_type: EntityType; entity_id: string },
  signature: string,
  documentHash: string,
): Promise<Date | null> {
  const row = await findRecordedSignature(ctx.em, signer.entity_type, signer.entity_id, signature);
  return row && row.document_hash === documentHash ? row.signed_at : null;
}
