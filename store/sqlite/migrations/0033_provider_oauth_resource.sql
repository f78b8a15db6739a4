-- Upstream MCP grants (#42): resource is the canonical URI of the MCP server
-- a grant was made for (RFC 8707), sent again with every refresh of it, as
-- the MCP authorization specification asks; empty for a provider's grant.
-- A grant made before names its server's URL, the resource discovery finds
-- unless the server's metadata says otherwise.
ALTER TABLE provider_oauth ADD COLUMN resource TEXT NOT NULL DEFAULT '';
UPDATE provider_oauth SET resource = COALESCE((SELECT m.url FROM mcp_servers m
	WHERE m.tenant_id = provider_oauth.tenant_id AND 'mcp:' || m.name = provider_oauth.provider), '')
WHERE provider LIKE 'mcp:%';
