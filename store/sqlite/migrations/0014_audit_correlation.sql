-- The X-Request-Id a client sent with a call, kept apart from the server's
-- request id: clients choose it, so two tenants can send the same one, and
-- it is only looked up within one tenant (hence the index's leading tenant).
ALTER TABLE audit_log ADD COLUMN correlation_id TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_correlation ON audit_log (tenant_id, correlation_id, id) WHERE correlation_id <> '';
