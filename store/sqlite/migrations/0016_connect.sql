-- Connect accounts (#33): the operator's OAuth apps at each provider, and
-- the single-use connect links through which account owners grant access.
-- Secrets are sealed ("v1:..."); link tokens and OAuth states are stored as
-- SHA-256 hex only. Scopes are space-separated, as OAuth writes them.

-- tenant_id is '' for the gateway-wide app of a provider, so it cannot
-- reference tenants; the admin API checks the tenant exists.
CREATE TABLE oauth_apps (
	tenant_id     TEXT NOT NULL,
	provider      TEXT NOT NULL,
	client_id     TEXT NOT NULL,
	client_secret TEXT NOT NULL, -- sealed, '' when none
	extra_scopes  TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, provider)
) STRICT;

CREATE TABLE connect_links (
	id           TEXT PRIMARY KEY,
	token_hash   TEXT NOT NULL UNIQUE,
	tenant_id    TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	provider     TEXT NOT NULL,
	account_hint TEXT NOT NULL DEFAULT '',
	scopes       TEXT NOT NULL DEFAULT '',
	status       TEXT NOT NULL,
	state_hash   TEXT NOT NULL DEFAULT '', -- '' until opened
	secret       TEXT NOT NULL DEFAULT '', -- sealed, '' when none
	created_by   TEXT NOT NULL DEFAULT '',
	created_at   INTEGER NOT NULL,
	expires_at   INTEGER NOT NULL,
	opened_at    INTEGER,
	finished_at  INTEGER,
	result       TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX connect_links_state ON connect_links (state_hash) WHERE state_hash <> '';
CREATE INDEX connect_links_tenant ON connect_links (tenant_id, created_at DESC, id DESC);
CREATE INDEX connect_links_created ON connect_links (created_at DESC, id DESC);
