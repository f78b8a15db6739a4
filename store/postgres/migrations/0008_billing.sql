-- Billing plans, hourly usage rollups (kept as calls are written, so raw
-- usage events can be dropped without losing a total) and per-replica quota
-- counters.

CREATE TABLE billing_plans (
	tenant_id  TEXT PRIMARY KEY,
	body       TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE usage_rollups (
	tenant_id         TEXT NOT NULL,
	hour              TIMESTAMPTZ NOT NULL,
	tool              TEXT NOT NULL,
	action            TEXT NOT NULL,
	calls             BIGINT NOT NULL,
	errors            BIGINT NOT NULL,
	prompt_tokens     BIGINT NOT NULL,
	completion_tokens BIGINT NOT NULL,
	duration_ms       DOUBLE PRECISION NOT NULL,
	upstream_ms       DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (tenant_id, hour, tool, action)
);

INSERT INTO usage_rollups (tenant_id, hour, tool, action, calls, errors, prompt_tokens, completion_tokens, duration_ms, upstream_ms)
SELECT tenant_id, date_trunc('hour', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', tool, action, COUNT(*),
	SUM(CASE WHEN ok THEN 0 ELSE 1 END), SUM(prompt_tokens), SUM(completion_tokens), SUM(duration_ms), SUM(upstream_ms)
FROM usage_events GROUP BY 1, 2, 3, 4;

CREATE TABLE quota_counters (
	tenant_id    TEXT NOT NULL,
	period_start TIMESTAMPTZ NOT NULL,
	replica      TEXT NOT NULL,
	calls        BIGINT NOT NULL,
	tokens       BIGINT NOT NULL,
	cost_micros  BIGINT NOT NULL,
	updated_at   TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (tenant_id, period_start, replica)
);
