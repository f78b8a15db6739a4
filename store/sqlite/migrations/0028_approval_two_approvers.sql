-- Two approvers for destructive actions: a gate records how many different
-- deciders must approve it (0: one), and the approvals given so far as a
-- JSON array ('' for none). It is TEXT, not JSON, so a second approval can
-- compare it, as read, in its conditional UPDATE.
ALTER TABLE approvals ADD COLUMN approvals_required INTEGER NOT NULL DEFAULT 0;
ALTER TABLE approvals ADD COLUMN approvals TEXT NOT NULL DEFAULT '';
