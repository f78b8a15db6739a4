-- Named admin API keys (#39): people's and automations' keys besides the
-- bootstrap ADMIN_API_KEY. Only the key's SHA-256 is kept; scopes and
-- tenants are space-separated; a name is unique among the keys not revoked.
CREATE TABLE admin_keys (
	id           TEXT PRIMARY KEY,
	name         TEXT NOT NULL,
	owner        TEXT NOT NULL,
	prefix       TEXT NOT NULL,
	hash         TEXT NOT NULL UNIQUE,
	scopes       TEXT NOT NULL,
	tenants      TEXT NOT NULL DEFAULT '',
	created_at   TIMESTAMPTZ NOT NULL,
	created_by   TEXT NOT NULL DEFAULT '',
	expires_at   TIMESTAMPTZ,
	revoked_at   TIMESTAMPTZ,
	last_used_at TIMESTAMPTZ
);
CREATE UNIQUE INDEX admin_keys_live_name ON admin_keys (name) WHERE revoked_at IS NULL;
