-- Following the audit log without skipping a row that commits late: each row
-- carries the id of the transaction that wrote it. Rows written before this
-- migration share key 0 and are ordered by id.
ALTER TABLE audit_log ADD COLUMN xact xid8 NOT NULL DEFAULT '0';
ALTER TABLE audit_log ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
CREATE INDEX audit_log_xact ON audit_log (xact, id);
