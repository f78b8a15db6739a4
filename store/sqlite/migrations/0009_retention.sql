-- Retention prunes usage events by age across tenants, and system health
-- reads the newest: both need usage_events by time alone.
CREATE INDEX usage_events_time ON usage_events (time);
