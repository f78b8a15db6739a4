-- How far each local audit journal (a segment file under DATA_DIR/journal)
-- has been written into audit_log and usage_events. It moves in the same
-- transaction as the rows it covers, so replaying a journal after a crash
-- never writes a call twice.

CREATE TABLE audit_journal (
	journal    TEXT PRIMARY KEY,
	applied_to BIGINT NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL
);
