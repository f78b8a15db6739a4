-- The quality harness: incidents are error_ledger entries with a state;
-- verdicts, tool path states, known-good results and webhook deliveries.
ALTER TABLE error_ledger ADD COLUMN status TEXT NOT NULL DEFAULT '';
ALTER TABLE error_ledger ADD COLUMN resolved_at INTEGER;
ALTER TABLE error_ledger ADD COLUMN resolved_by TEXT NOT NULL DEFAULT '';
-- One open incident per tenant and tool path.
CREATE UNIQUE INDEX error_ledger_open_incident ON error_ledger (tenant_id, tool, action)
	WHERE kind = 'incident' AND status = 'open';

CREATE TABLE grader_verdicts (
	id             TEXT PRIMARY KEY,
	trace_id       TEXT NOT NULL,
	time           INTEGER NOT NULL,
	tenant_id      TEXT NOT NULL,
	tool           TEXT NOT NULL,
	action         TEXT NOT NULL,
	status         TEXT NOT NULL,
	quality        INTEGER,
	routing_defect INTEGER NOT NULL DEFAULT 0,
	-- The panel's issues as ",a,b," so one LIKE finds an issue on either backend.
	issues         TEXT NOT NULL DEFAULT ',',
	labelled       INTEGER NOT NULL DEFAULT 0,
	body           TEXT NOT NULL
) STRICT;
CREATE INDEX grader_verdicts_time ON grader_verdicts (time);
CREATE INDEX grader_verdicts_tenant_time ON grader_verdicts (tenant_id, time);
CREATE INDEX grader_verdicts_trace ON grader_verdicts (trace_id, time);

CREATE TABLE grader_paths (
	tenant_id        TEXT NOT NULL,
	tool             TEXT NOT NULL,
	action           TEXT NOT NULL,
	consecutive_bad  INTEGER NOT NULL DEFAULT 0,
	consecutive_good INTEGER NOT NULL DEFAULT 0,
	degraded         INTEGER NOT NULL DEFAULT 0,
	incident_id      TEXT NOT NULL DEFAULT '',
	streak           TEXT NOT NULL DEFAULT '[]',
	updated_at       INTEGER NOT NULL,
	PRIMARY KEY (tenant_id, tool, action)
) STRICT;

CREATE TABLE grader_known_good (
	tenant_id TEXT NOT NULL,
	shape     TEXT NOT NULL,
	trace_id  TEXT NOT NULL,
	time      INTEGER NOT NULL,
	result    TEXT,
	PRIMARY KEY (tenant_id, shape)
) STRICT;

CREATE TABLE webhook_deliveries (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	webhook_id  TEXT NOT NULL,
	event       TEXT NOT NULL,
	tenant_id   TEXT NOT NULL DEFAULT '',
	attempt     INTEGER NOT NULL,
	time        INTEGER NOT NULL,
	status      INTEGER NOT NULL DEFAULT 0,
	ok          INTEGER NOT NULL,
	error       TEXT NOT NULL DEFAULT '',
	duration_ms REAL NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX webhook_deliveries_time ON webhook_deliveries (time);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id);

-- Why a call was held: the tenant's approval policy, or an open quality incident.
ALTER TABLE approvals ADD COLUMN gate TEXT NOT NULL DEFAULT 'policy';
ALTER TABLE approvals ADD COLUMN incident_id TEXT NOT NULL DEFAULT '';
