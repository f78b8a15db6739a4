// mcp-client.mjs drives gtmgate's /mcp with the official MCP TypeScript SDK
// client: connect over streamable HTTP with a bearer token, list tools, call
// one successfully, one with invalid input and one held for approval. Prints one JSON summary line.
// Usage: GTMGATE_MCP_URL=... GTMGATE_TOKEN=... node mcp-client.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.env.GTMGATE_MCP_URL;
const token = process.env.GTMGATE_TOKEN;
if (!url || !token) {
  console.error("GTMGATE_MCP_URL and GTMGATE_TOKEN are required");
  process.exit(2);
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "gtmgate-e2e", version: "1.0.0" });
await client.connect(transport);

const tools = await client.listTools();
const ok = await client.callTool({
  name: "crm_deals",
  arguments: { action: "list", limit: 3, rationale: "e2e: list a few deals" },
});
const invalid = await client.callTool({ name: "crm_deals", arguments: { action: "list" } });
const unknownAccount = await client.callTool({
  name: "crm_deals",
  arguments: { action: "list", rationale: "e2e", account_id: "not-mine" },
});

// A held call: a client on 2025-11-25 gets APPROVAL_REQUIRED, as always.
const held = await client.callTool({
  name: "google_ads_campaigns",
  arguments: { action: "update_budget", campaign_id: "21000100002", amount: 120, rationale: "e2e: a held budget change" },
});

const text = (r) => (r.content && r.content[0] && r.content[0].text) || "";
console.log(
  JSON.stringify({
    server: client.getServerVersion(),
    protocolVersion: transport.protocolVersion ?? null,
    tools: tools.tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint ?? null, hasSchema: !!t.inputSchema })),
    ok: { isError: !!ok.isError, body: JSON.parse(text(ok)) },
    invalid: { isError: !!invalid.isError, body: JSON.parse(text(invalid)) },
    unknownAccount: { isError: !!unknownAccount.isError, body: JSON.parse(text(unknownAccount)) },
    held: { isError: !!held.isError, resultType: held.resultType ?? null, body: JSON.parse(text(held)) },
  }),
);
await client.close();
