-- The agent run whose step a gate holds: cancelling the run withdraws its
-- pending gates (status withdrawn), so none of them can be approved after.
ALTER TABLE approvals ADD COLUMN run_id TEXT NOT NULL DEFAULT '';
-- A run's steps have the request ids <run id>-s<n>.
UPDATE approvals a SET run_id = r.id FROM agent_runs r
	WHERE a.parent_request_id <> '' AND r.tenant_id = a.tenant_id AND left(a.request_id, length(r.id) + 2) = r.id || '-s';
CREATE INDEX approvals_run ON approvals (tenant_id, run_id) WHERE run_id <> '';
-- Gates still pending whose run has ended were left by cancellations
-- before this: withdraw them.
UPDATE approvals SET status = 'withdrawn', decided_at = now(),
		reason = 'agent run ' || run_id || ' ended before this gate was decided; the call is withdrawn'
	WHERE status = 'pending' AND run_id IN (SELECT id FROM agent_runs WHERE status IN ('succeeded', 'failed', 'cancelled', 'skipped'));
