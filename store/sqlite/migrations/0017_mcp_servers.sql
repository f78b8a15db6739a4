-- Tenants' upstream MCP servers (#34). config is the JSON of the non-secret
-- configuration (auth kind, header, token URL, client id, scopes, the tools
-- allow-list, the overrides); secret is the sealed ("v1:...") bearer token,
-- header value or client secret, '' when none. state is the JSON of what
-- discovery last found, written apart from the configuration: replacing a
-- server's configuration keeps it.
CREATE TABLE mcp_servers (
	tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	url        TEXT NOT NULL,
	config     TEXT NOT NULL,
	secret     TEXT NOT NULL DEFAULT '', -- sealed, '' when none
	state      TEXT NOT NULL DEFAULT '{}',
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, name)
) STRICT;
