-- A gate is bound to the call it holds (#41): the digest of the exact
-- stored call (tenant, tool, action, account, input), the approval policy
-- version that held it, and the caller: the agent's key and the person it
-- acts for. '' for gates written before, which execute as before.
ALTER TABLE approvals ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE approvals ADD COLUMN policy_version TEXT NOT NULL DEFAULT '';
ALTER TABLE approvals ADD COLUMN agent TEXT NOT NULL DEFAULT '';
ALTER TABLE approvals ADD COLUMN person TEXT NOT NULL DEFAULT '';
