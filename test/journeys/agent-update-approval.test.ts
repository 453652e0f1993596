import { expect, test } from "vitest";
import { PASSWORD } from "../support/app.ts";
import { formCompany, journeyCast, signInAgain, type Zone } from "./support.ts";

// Issue 32 item 11: an agent's update waits for its owner, and the approval shows the record's current values of
// the fields the call would set beside the proposed ones. Public API only; the agent speaks MCP over HTTP.

const cast = journeyCast({ carla: { first_name: "Carla", last_name: "Founder" } });

async function callTool(zone: Zone, key: string, name: string, args: Record<string, unknown>) {
  const r = await zone.t.post(
    "/mcp",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    { "x-api-key": key, accept: "application/json, text/event-stream" },
  );
  return r.body.result as { isError?: boolean; structuredContent: any };
}

test("an agent's company update is parked; the owner sees the current description beside the proposed one", async () => {
  const { zone, carla } = cast;
  await signInAgain(zone, carla);
  const { companyId } = await formCompany(zone, { resident: carla, units: 100 }, []);
  await carla.client.callOk("companyservice.update", {
    company_id: companyId,
    data: { description: "Bookkeeping for small shops" },
  });
  const minted = await carla.client.callOk("apikeyservice.generate_personal", {
    name: "profile agent",
    password: PASSWORD,
    mcp_scope: "readwrite",
    approval_required_tools: "freezone_companyservice_update",
  });
  const parked = await callTool(zone, minted.api_key, "freezone_companyservice_update", {
    company_id: companyId,
    data: { description: "Bookkeeping and payroll for small shops" },
  });
  expect(parked.structuredContent).toMatchObject({ status: "pending_approval" });
  const approval = await carla.client.callOk("mcpapprovalservice.get", {
    approval_id: parked.structuredContent.approval_id,
  });
  expect(JSON.parse(approval.current ?? "null")).toEqual({ description: "Bookkeeping for small shops" });
  expect(JSON.parse(approval.arguments ?? "{}").data).toEqual({
    description: "Bookkeeping and payroll for small shops",
  });
  expect(approval).toMatchObject({ api_key_name: "profile agent", retryable: false });
  // Approved, it runs; the company now holds the proposed value.
  const done = await carla.client.callOk("mcpapprovalservice.approve", { approval_id: approval.sid });
  expect(done.status).toBe("approved_executed");
  const company = await carla.client.callOk("companyservice.get", { company_id: companyId });
  expect(company.description).toBe("Bookkeeping and payroll for small shops");
});
