-- Console sessions (the cookie's SHA-256 only), the index that lists a
-- tenant's OAuth grants by client, and the audit and ledger by request (a
-- call's detail in the console).
CREATE TABLE console_sessions (
	hash       TEXT PRIMARY KEY,
	key_hash   TEXT NOT NULL,
	address    TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
CREATE INDEX oauth_tokens_tenant_client ON oauth_tokens (tenant_id, client_id);
CREATE INDEX audit_log_request ON audit_log (request_id) WHERE request_id <> '';
CREATE INDEX error_ledger_request ON error_ledger (request_id) WHERE request_id <> '';
