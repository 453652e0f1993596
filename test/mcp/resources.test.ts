import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DOMAINS } from "../../generated/policy.ts";
import { PROJECT_ROOT } from "../../src/project-root.ts";
import { generateKey } from "../support/helpers.ts";
import { postMcp, servedMcp } from "./support.ts";

const f = servedMcp();

// Issue 32 item 12: the contract as MCP resources, read without a tool call; prompts and templates as empty lists.
describe("MCP resources", () => {
  test("the SDK client lists the OpenRPC documents and the reference pages, and reads them", async () => {
    const client = await f.connect(f.rw.key);
    const listed = await client.listResources();
    const uris = listed.resources.map((r) => r.uri);
    expect(uris).toContain("freezone://openrpc/all.json");
    for (const domain of DOMAINS) expect(uris).toContain(`freezone://openrpc/${domain}.json`);
    expect(uris).toContain("freezone://reference/errors.md");
    expect(uris).toContain("freezone://reference/services/payment-service.md");
    expect(new Set(uris).size).toBe(uris.length);
    expect(listed.resources.find((r) => r.uri === "freezone://openrpc/all.json")).toMatchObject({
      mimeType: "application/json",
      title: "OpenRPC: every method",
    });

    // The document as /api/v1/openrpc.json serves it: the same bytes, the instance's servers URL.
    const read = await client.readResource({ uri: "freezone://openrpc/all.json" });
    const content = read.contents[0];
    expect(content).toMatchObject({ uri: "freezone://openrpc/all.json", mimeType: "application/json" });
    const served = await f.t.app.fetch(new Request("http://localhost/api/v1/openrpc.json"));
    expect(content && "text" in content ? content.text : null).toBe(await served.text());

    const page = await client.readResource({ uri: "freezone://reference/services/payment-service.md" });
    const onDisk = readFileSync(join(PROJECT_ROOT, "docs", "reference", "services", "payment-service.md"), "utf8");
    expect(page.contents).toEqual([
      { uri: "freezone://reference/services/payment-service.md", mimeType: "text/markdown", text: onDisk },
    ]);
    const meta = listed.resources.find((r) => r.uri === "freezone://reference/services/payment-service.md");
    expect(meta?.size).toBe(Buffer.byteLength(onDisk, "utf8"));
  });

  test("an unknown or escaping URI is -32002 Resource not found; nothing from outside the catalogue is read", async () => {
    const headers = { "x-api-key": f.rw.key };
    for (const uri of [
      "freezone://reference/../../package.json",
      "freezone://openrpc/nope.json",
      "file:///etc/passwd",
      "freezone://reference/services/PAYMENT-SERVICE.md",
    ]) {
      const r = await postMcp(
        f.served.url,
        { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } },
        headers,
      );
      expect(r.body).toMatchObject({ id: 1, error: { code: -32002, message: "Resource not found", data: { uri } } });
    }
    const bad = await postMcp(f.served.url, { jsonrpc: "2.0", id: 2, method: "resources/read", params: {} }, headers);
    expect(bad.body.error.code).toBe(-32602);
  });

  test("prompts and resource templates are empty lists, not -32601", async () => {
    const headers = { "x-api-key": f.rw.key };
    const prompts = await postMcp(f.served.url, { jsonrpc: "2.0", id: 3, method: "prompts/list" }, headers);
    expect(prompts.body).toEqual({ jsonrpc: "2.0", id: 3, result: { prompts: [] } });
    const templates = await postMcp(
      f.served.url,
      { jsonrpc: "2.0", id: 4, method: "resources/templates/list" },
      headers,
    );
    expect(templates.body).toEqual({ jsonrpc: "2.0", id: 4, result: { resourceTemplates: [] } });
  });

  test("a read-only key reads them too; a key without MCP access does not", async () => {
    const ro = await generateKey(f.owner, { mcp_scope: "read" });
    const list = await postMcp(
      f.served.url,
      { jsonrpc: "2.0", id: 5, method: "resources/list" },
      { "x-api-key": ro.key },
    );
    expect(list.body.result.resources.length).toBeGreaterThan(DOMAINS.length);
    const plain = await generateKey(f.owner, { mcp_scope: null });
    const refused = await postMcp(
      f.served.url,
      { jsonrpc: "2.0", id: 6, method: "resources/list" },
      { "x-api-key": plain.key },
    );
    expect(refused.status).toBe(403);
  });
});
