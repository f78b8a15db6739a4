// mcp-agents.mjs connects the official MCP TypeScript SDK client to
// gtmgate's /mcp as several agents of one tenant, each with its own token:
// for each, it lists the tools (with each tool's action enum and read-only
// hint) and makes the calls it is given. Prints one JSON summary line.
// Usage: GTMGATE_MCP_URL=... GTMGATE_AGENTS='[{"token":"…","calls":[{"name":"…","arguments":{…}}]}]' node mcp-agents.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.env.GTMGATE_MCP_URL;
const agents = JSON.parse(process.env.GTMGATE_AGENTS || "[]");
if (!url || agents.length === 0) {
  console.error("GTMGATE_MCP_URL and GTMGATE_AGENTS are required");
  process.exit(2);
}

const text = (r) => (r.content && r.content[0] && r.content[0].text) || "";
const out = [];
for (const agent of agents) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${agent.token}` } },
  });
  const client = new Client({ name: "gtmgate-e2e-agent", version: "1.0.0" });
  await client.connect(transport);
  const listed = await client.listTools();
  const calls = [];
  for (const call of agent.calls || []) {
    try {
      const r = await client.callTool(call);
      calls.push({ isError: !!r.isError, body: JSON.parse(text(r)) });
    } catch (e) {
      calls.push({ isError: true, protocolError: String(e.message || e) });
    }
  }
  out.push({
    tools: listed.tools.map((t) => ({
      name: t.name,
      actions: t.inputSchema?.properties?.action?.enum ?? [],
      readOnly: t.annotations?.readOnlyHint ?? null,
    })),
    calls,
  });
  await client.close();
}
console.log(JSON.stringify({ agents: out }));
