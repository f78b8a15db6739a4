-- Verdicts name the agent whose call they grade (#40): the trace's key, as
-- the call's audit entry names it ("tok_…", "oauth:<grant id>",
-- "agent:<run id>"); '' for verdicts written before. (key_id, time) serves
-- one agent's verdicts, as usage_events_key does for its usage.
ALTER TABLE grader_verdicts ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
CREATE INDEX grader_verdicts_key ON grader_verdicts (key_id, time);
