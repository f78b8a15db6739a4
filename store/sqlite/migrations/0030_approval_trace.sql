-- A gate keeps the trace of the call it holds (#41): the call's execution,
-- on the approver's request, continues the agent's trace. '' for gates
-- written before, which execute in the approver's trace as before.
ALTER TABLE approvals ADD COLUMN trace_parent TEXT NOT NULL DEFAULT '';
