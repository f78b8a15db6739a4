-- gtmgate schema, SQLite. Times are INTEGER microseconds since the Unix epoch
-- (UTC); booleans are 0/1; JSON is TEXT. Secret columns hold values sealed
-- with AES-256-GCM ("v1:..."), never plaintext.

CREATE TABLE tenants (
	id         TEXT PRIMARY KEY,
	status     TEXT NOT NULL,
	config     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE tenant_tokens (
	id         TEXT PRIMARY KEY,
	tenant_id  TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	hash       TEXT NOT NULL UNIQUE,
	prefix     TEXT NOT NULL,
	label      TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
) STRICT;
CREATE INDEX tenant_tokens_tenant ON tenant_tokens (tenant_id, created_at);

CREATE TABLE provider_tokens (
	tenant_id    TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	provider     TEXT NOT NULL,
	account_id   TEXT NOT NULL,
	access_token TEXT NOT NULL, -- sealed
	token_type   TEXT NOT NULL DEFAULT '',
	expires_at   INTEGER,
	updated_at   INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, provider, account_id)
) STRICT;

CREATE TABLE provider_oauth (
	tenant_id           TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	provider            TEXT NOT NULL,
	account_id          TEXT NOT NULL,
	client_id           TEXT NOT NULL,
	client_secret       TEXT NOT NULL, -- sealed, '' when none
	token_endpoint      TEXT NOT NULL,
	refresh_token       TEXT NOT NULL, -- sealed, '' when none
	needs_reauth        INTEGER NOT NULL DEFAULT 0,
	last_error          TEXT NOT NULL DEFAULT '',
	last_refresh_at     INTEGER,
	updated_at          INTEGER NOT NULL,
	refresh_holder      TEXT,
	refresh_lease_until INTEGER,
	PRIMARY KEY (tenant_id, provider, account_id)
) STRICT;

-- AUTOINCREMENT: ids are never reused, so audit cursors stay valid.
CREATE TABLE audit_log (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	time        INTEGER NOT NULL,
	tenant_id   TEXT NOT NULL DEFAULT '',
	action      TEXT NOT NULL,
	source      TEXT NOT NULL,
	key_id      TEXT NOT NULL DEFAULT '',
	outcome     TEXT NOT NULL,
	status      INTEGER NOT NULL,
	error_code  TEXT NOT NULL DEFAULT '',
	duration_ms REAL NOT NULL,
	request_id  TEXT NOT NULL DEFAULT '',
	detail      TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX audit_log_time ON audit_log (time);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
CREATE INDEX audit_log_source ON audit_log (source, id);
CREATE INDEX audit_log_key ON audit_log (key_id, id);

CREATE TABLE usage_events (
	id                INTEGER PRIMARY KEY,
	time              INTEGER NOT NULL,
	tenant_id         TEXT NOT NULL,
	source            TEXT NOT NULL,
	tool              TEXT NOT NULL,
	action            TEXT NOT NULL,
	ok                INTEGER NOT NULL,
	duration_ms       REAL NOT NULL,
	upstream_ms       REAL NOT NULL,
	prompt_tokens     INTEGER NOT NULL,
	completion_tokens INTEGER NOT NULL
) STRICT;
CREATE INDEX usage_events_tenant_time ON usage_events (tenant_id, time);

CREATE TABLE error_ledger (
	id         TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	time       INTEGER NOT NULL,
	tenant_id  TEXT NOT NULL DEFAULT '',
	source     TEXT NOT NULL DEFAULT '',
	tool       TEXT NOT NULL DEFAULT '',
	action     TEXT NOT NULL DEFAULT '',
	mutating   INTEGER NOT NULL DEFAULT 0,
	input      TEXT,
	error_code TEXT NOT NULL DEFAULT '',
	message    TEXT NOT NULL DEFAULT '',
	detail     TEXT,
	request_id TEXT NOT NULL DEFAULT '',
	replays    TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX error_ledger_time ON error_ledger (time);
CREATE INDEX error_ledger_tenant_time ON error_ledger (tenant_id, time);

CREATE TABLE agent_feedback (
	id               TEXT PRIMARY KEY,
	tenant_id        TEXT NOT NULL,
	time             INTEGER NOT NULL,
	attempted_action TEXT NOT NULL DEFAULT '',
	expected_outcome TEXT NOT NULL DEFAULT '',
	actual_outcome   TEXT NOT NULL DEFAULT '',
	tool_called      TEXT NOT NULL DEFAULT '',
	error_seen       TEXT NOT NULL DEFAULT '',
	severity         TEXT NOT NULL,
	request_id       TEXT NOT NULL DEFAULT '',
	resolved_at      INTEGER,
	resolved_by      TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX agent_feedback_time ON agent_feedback (time);
CREATE INDEX agent_feedback_tenant_time ON agent_feedback (tenant_id, time);

CREATE TABLE approvals (
	id         TEXT PRIMARY KEY,
	tenant_id  TEXT NOT NULL,
	status     TEXT NOT NULL,
	tool       TEXT NOT NULL,
	action     TEXT NOT NULL DEFAULT '',
	category   TEXT NOT NULL DEFAULT '',
	account_id TEXT NOT NULL DEFAULT '',
	input      TEXT,
	source     TEXT NOT NULL DEFAULT '',
	request_id TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	decided_at INTEGER,
	decided_by TEXT NOT NULL DEFAULT '',
	reason     TEXT NOT NULL DEFAULT '',
	result     TEXT
) STRICT;
CREATE INDEX approvals_tenant_created ON approvals (tenant_id, created_at);
CREATE INDEX approvals_status_created ON approvals (status, created_at);
