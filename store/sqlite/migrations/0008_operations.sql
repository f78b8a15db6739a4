-- The replicas sharing this database (heartbeats: rate limits are divided
-- among the live ones; system health lists them) and system health snapshots.

CREATE TABLE replicas (
	id         TEXT PRIMARY KEY,
	hostname   TEXT NOT NULL,
	version    TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	seen_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX replicas_seen ON replicas (seen_at);

CREATE TABLE health_snapshots (
	id       TEXT PRIMARY KEY,
	taken_at INTEGER NOT NULL,
	status   TEXT NOT NULL,
	body     TEXT NOT NULL
) STRICT;
CREATE INDEX health_snapshots_taken ON health_snapshots (taken_at);
