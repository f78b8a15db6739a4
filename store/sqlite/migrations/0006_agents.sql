-- Agent runs, schedules and daily briefs; the parent request of each audited call.

-- The request of the agent run (or other caller) a call was made for.
ALTER TABLE audit_log ADD COLUMN parent_request_id TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_parent ON audit_log (parent_request_id, id) WHERE parent_request_id <> '';

-- The agent run a held step belongs to.
ALTER TABLE approvals ADD COLUMN parent_request_id TEXT NOT NULL DEFAULT '';

CREATE TABLE agent_runs (
	id               TEXT PRIMARY KEY,
	tenant_id        TEXT NOT NULL,
	status           TEXT NOT NULL,
	trigger_kind     TEXT NOT NULL,
	schedule_id      TEXT NOT NULL DEFAULT '',
	scheduled_for    INTEGER,
	waiting_for      TEXT NOT NULL DEFAULT '',
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL,
	version          INTEGER NOT NULL,
	messages         TEXT NOT NULL DEFAULT '',
	body             TEXT NOT NULL
) STRICT;
CREATE INDEX agent_runs_tenant ON agent_runs (tenant_id, created_at);
CREATE INDEX agent_runs_schedule ON agent_runs (schedule_id, created_at) WHERE schedule_id <> '';
CREATE INDEX agent_runs_status ON agent_runs (status, created_at);
CREATE INDEX agent_runs_waiting ON agent_runs (waiting_for) WHERE waiting_for <> '';
-- One run per schedule tick, whichever replica (or restart) gets there first.
CREATE UNIQUE INDEX agent_runs_tick ON agent_runs (schedule_id, scheduled_for) WHERE trigger_kind = 'schedule';

CREATE TABLE agent_schedules (
	job_id      TEXT PRIMARY KEY,
	tenant_id   TEXT NOT NULL,
	cron        TEXT NOT NULL,
	enabled     INTEGER NOT NULL,
	next_run_at INTEGER,
	updated_at  INTEGER NOT NULL,
	body        TEXT NOT NULL
) STRICT;
CREATE INDEX agent_schedules_tenant ON agent_schedules (tenant_id, job_id);
CREATE INDEX agent_schedules_due ON agent_schedules (next_run_at) WHERE next_run_at IS NOT NULL;

CREATE TABLE daily_briefs (
	date         TEXT PRIMARY KEY,
	generated_at INTEGER NOT NULL,
	body         TEXT NOT NULL
) STRICT;
