-- The gateway's OAuth authorization server (MCP clients). Codes, tokens and
-- connect codes are stored as SHA-256 hex of their values; client secrets
-- likewise. Scopes are space-separated.

CREATE TABLE oauth_clients (
	id            TEXT PRIMARY KEY,
	secret_hash   TEXT NOT NULL DEFAULT '',
	name          TEXT NOT NULL DEFAULT '',
	redirect_uris JSONB NOT NULL,
	auth_method   TEXT NOT NULL,
	scope         TEXT NOT NULL DEFAULT '',
	created_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE oauth_codes (
	hash           TEXT PRIMARY KEY,
	family_id      TEXT NOT NULL,
	client_id      TEXT NOT NULL,
	redirect_uri   TEXT NOT NULL,
	code_challenge TEXT NOT NULL,
	scopes         TEXT NOT NULL,
	tenant_id      TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	resource       TEXT NOT NULL,
	created_at     TIMESTAMPTZ NOT NULL,
	expires_at     TIMESTAMPTZ NOT NULL,
	used_at        TIMESTAMPTZ
);
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);

CREATE TABLE oauth_tokens (
	id         TEXT PRIMARY KEY,
	hash       TEXT NOT NULL UNIQUE,
	kind       TEXT NOT NULL,
	family_id  TEXT NOT NULL,
	tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	client_id  TEXT NOT NULL,
	scopes     TEXT NOT NULL,
	resource   TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	expires_at TIMESTAMPTZ NOT NULL,
	used_at    TIMESTAMPTZ,
	revoked_at TIMESTAMPTZ
);
CREATE INDEX oauth_tokens_family ON oauth_tokens (family_id);
CREATE INDEX oauth_tokens_expires ON oauth_tokens (expires_at);

CREATE TABLE oauth_connect_codes (
	hash       TEXT PRIMARY KEY,
	tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	created_at TIMESTAMPTZ NOT NULL,
	expires_at TIMESTAMPTZ NOT NULL,
	used_at    TIMESTAMPTZ
);
CREATE INDEX oauth_connect_codes_expires ON oauth_connect_codes (expires_at);
