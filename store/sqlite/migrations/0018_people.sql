-- People (#39): identity providers (client secret sealed), people by
-- (issuer, subject), the grants that give them roles, sign-ins under way
-- (the state's SHA-256 only, used once), and who a console session and an
-- audit entry belong to.
CREATE TABLE sso_idps (
	name            TEXT PRIMARY KEY,
	display_name    TEXT NOT NULL DEFAULT '',
	issuer          TEXT NOT NULL,
	client_id       TEXT NOT NULL,
	client_secret   TEXT NOT NULL DEFAULT '', -- sealed
	tenant_id       TEXT NOT NULL DEFAULT '',
	allowed_domains TEXT NOT NULL DEFAULT '',
	groups_claim    TEXT NOT NULL DEFAULT '',
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
) STRICT;
CREATE TABLE people (
	id           TEXT PRIMARY KEY,
	idp          TEXT NOT NULL,
	issuer       TEXT NOT NULL,
	subject      TEXT NOT NULL,
	email        TEXT NOT NULL DEFAULT '',
	name         TEXT NOT NULL DEFAULT '',
	created_at   INTEGER NOT NULL,
	last_seen_at INTEGER NOT NULL,
	UNIQUE (issuer, subject)
) STRICT;
CREATE TABLE role_grants (
	id         TEXT PRIMARY KEY,
	idp        TEXT NOT NULL,
	kind       TEXT NOT NULL,
	match      TEXT NOT NULL,
	role       TEXT NOT NULL,
	tenant_id  TEXT NOT NULL DEFAULT '',
	categories TEXT NOT NULL DEFAULT '',
	tools      TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	created_by TEXT NOT NULL DEFAULT '',
	UNIQUE (idp, kind, match, role, tenant_id)
) STRICT;
CREATE TABLE sso_signins (
	state_hash TEXT PRIMARY KEY,
	idp        TEXT NOT NULL,
	nonce      TEXT NOT NULL,
	verifier   TEXT NOT NULL, -- sealed
	next       TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sso_signins_expires ON sso_signins (expires_at);
ALTER TABLE console_sessions ADD COLUMN person_id TEXT NOT NULL DEFAULT '';
ALTER TABLE console_sessions ADD COLUMN idp TEXT NOT NULL DEFAULT '';
ALTER TABLE console_sessions ADD COLUMN identity TEXT NOT NULL DEFAULT '';
CREATE INDEX console_sessions_person ON console_sessions (person_id) WHERE person_id <> '';
ALTER TABLE audit_log ADD COLUMN actor_via TEXT NOT NULL DEFAULT '';
