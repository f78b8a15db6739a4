-- The OpenTelemetry trace id of the request that made each audit entry
-- (empty when tracing is off), to go from an entry to its trace.
ALTER TABLE audit_log ADD COLUMN trace_id TEXT NOT NULL DEFAULT '';
