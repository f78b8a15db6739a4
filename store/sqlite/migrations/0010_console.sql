-- Console sessions (the cookie's SHA-256 only) and the index that lists a
-- tenant's OAuth grants by client.
CREATE TABLE console_sessions (
	hash       TEXT PRIMARY KEY,
	key_hash   TEXT NOT NULL,
	address    TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
CREATE INDEX oauth_tokens_tenant_client ON oauth_tokens (tenant_id, client_id);
