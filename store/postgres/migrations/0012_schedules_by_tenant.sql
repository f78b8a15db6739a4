-- Schedules are keyed by tenant and job id: each tenant names its own jobs,
-- and one tenant's names neither collide with nor reveal another's. created_at
-- and revision are columns so that one INSERT ... ON CONFLICT creates or
-- replaces a schedule and says which, keeping its creation time.
ALTER TABLE agent_schedules DROP CONSTRAINT agent_schedules_pkey;
ALTER TABLE agent_schedules ADD PRIMARY KEY (tenant_id, job_id);
DROP INDEX agent_schedules_tenant;
CREATE INDEX agent_schedules_job ON agent_schedules (job_id);
ALTER TABLE agent_schedules ADD COLUMN created_at TIMESTAMPTZ;
UPDATE agent_schedules SET created_at = COALESCE((body::jsonb ->> 'created_at')::timestamptz, updated_at);
ALTER TABLE agent_schedules ALTER COLUMN created_at SET NOT NULL;
ALTER TABLE agent_schedules ADD COLUMN revision BIGINT NOT NULL DEFAULT 1;

-- One run per tick of each tenant's schedule.
DROP INDEX agent_runs_tick;
CREATE UNIQUE INDEX agent_runs_tick ON agent_runs (tenant_id, schedule_id, scheduled_for) WHERE trigger_kind = 'schedule';
DROP INDEX agent_runs_schedule;
CREATE INDEX agent_runs_schedule ON agent_runs (tenant_id, schedule_id, created_at) WHERE schedule_id <> '';
