-- Billing plans, hourly usage rollups (kept as calls are written, so raw
-- usage events can be dropped without losing a total) and per-replica quota
-- counters.

CREATE TABLE billing_plans (
	tenant_id  TEXT PRIMARY KEY,
	body       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE usage_rollups (
	tenant_id         TEXT NOT NULL,
	hour              INTEGER NOT NULL,
	tool              TEXT NOT NULL,
	action            TEXT NOT NULL,
	calls             INTEGER NOT NULL,
	errors            INTEGER NOT NULL,
	prompt_tokens     INTEGER NOT NULL,
	completion_tokens INTEGER NOT NULL,
	duration_ms       REAL NOT NULL,
	upstream_ms       REAL NOT NULL,
	PRIMARY KEY (tenant_id, hour, tool, action)
) STRICT;

INSERT INTO usage_rollups (tenant_id, hour, tool, action, calls, errors, prompt_tokens, completion_tokens, duration_ms, upstream_ms)
SELECT tenant_id, (time / 3600000000) * 3600000000, tool, action, COUNT(*), SUM(1 - ok), SUM(prompt_tokens),
	SUM(completion_tokens), SUM(duration_ms), SUM(upstream_ms)
FROM usage_events GROUP BY tenant_id, (time / 3600000000) * 3600000000, tool, action;

CREATE TABLE quota_counters (
	tenant_id    TEXT NOT NULL,
	period_start INTEGER NOT NULL,
	replica      TEXT NOT NULL,
	calls        INTEGER NOT NULL,
	tokens       INTEGER NOT NULL,
	cost_micros  INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, period_start, replica)
) STRICT;
