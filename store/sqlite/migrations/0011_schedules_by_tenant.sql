-- Schedules are keyed by tenant and job id: each tenant names its own jobs,
-- and one tenant's names neither collide with nor reveal another's. created_at
-- and revision are columns so that one INSERT ... ON CONFLICT creates or
-- replaces a schedule and says which, keeping its creation time.
CREATE TABLE agent_schedules_by_tenant (
	tenant_id   TEXT NOT NULL,
	job_id      TEXT NOT NULL,
	cron        TEXT NOT NULL,
	enabled     INTEGER NOT NULL,
	next_run_at INTEGER,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	revision    INTEGER NOT NULL DEFAULT 1,
	body        TEXT NOT NULL,
	PRIMARY KEY (tenant_id, job_id)
) STRICT;
INSERT INTO agent_schedules_by_tenant (tenant_id, job_id, cron, enabled, next_run_at, created_at, updated_at, body)
	SELECT tenant_id, job_id, cron, enabled, next_run_at,
		COALESCE(CAST(round(unixepoch(json_extract(body, '$.created_at'), 'subsec') * 1000000) AS INTEGER), updated_at),
		updated_at, body
	FROM agent_schedules;
DROP TABLE agent_schedules;
ALTER TABLE agent_schedules_by_tenant RENAME TO agent_schedules;
CREATE INDEX agent_schedules_job ON agent_schedules (job_id);
CREATE INDEX agent_schedules_due ON agent_schedules (next_run_at) WHERE next_run_at IS NOT NULL;

-- One run per tick of each tenant's schedule.
DROP INDEX agent_runs_tick;
CREATE UNIQUE INDEX agent_runs_tick ON agent_runs (tenant_id, schedule_id, scheduled_for) WHERE trigger_kind = 'schedule';
DROP INDEX agent_runs_schedule;
CREATE INDEX agent_runs_schedule ON agent_runs (tenant_id, schedule_id, created_at) WHERE schedule_id <> '';
