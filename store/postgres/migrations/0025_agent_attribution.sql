-- Usage events and error ledger entries name the agent whose call they
-- record (#40): its audit key, the token id ("tok_…"), "oauth:<grant id>"
-- or "agent:<run id>"; '' for rows written before, and for incidents. A key
-- is one tenant's, so (key_id, time) serves reads with or without the
-- tenant, as audit_log_key does for the audit log.
ALTER TABLE usage_events ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
CREATE INDEX usage_events_key ON usage_events (key_id, time);
ALTER TABLE error_ledger ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
CREATE INDEX error_ledger_key ON error_ledger (key_id, time);
