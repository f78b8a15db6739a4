-- The replicas sharing this database (heartbeats: rate limits are divided
-- among the live ones; system health lists them) and system health snapshots.

CREATE TABLE replicas (
	id         TEXT PRIMARY KEY,
	hostname   TEXT NOT NULL,
	version    TEXT NOT NULL,
	started_at TIMESTAMPTZ NOT NULL,
	seen_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX replicas_seen ON replicas (seen_at);

CREATE TABLE health_snapshots (
	id       TEXT PRIMARY KEY,
	taken_at TIMESTAMPTZ NOT NULL,
	status   TEXT NOT NULL,
	body     TEXT NOT NULL
);
CREATE INDEX health_snapshots_taken ON health_snapshots (taken_at);
