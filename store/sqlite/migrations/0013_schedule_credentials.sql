-- A schedule acts for the credential that created it (the admin key, a
-- tenant token, an OAuth grant); revoking the credential disables it, with
-- the reason and time. The credential's kind and id are columns so that one
-- UPDATE disables every schedule of a revoked credential; the disabled
-- reason and time are columns because that UPDATE does not rewrite the body.
-- Schedules stored before have no credential ('').
ALTER TABLE agent_schedules ADD COLUMN credential_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_schedules ADD COLUMN credential_id TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_schedules ADD COLUMN disabled_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_schedules ADD COLUMN disabled_at INTEGER;
CREATE INDEX agent_schedules_credential ON agent_schedules (tenant_id, credential_kind, credential_id);
