-- A gate keeps the state its call would change, read from the provider
-- when the call was held (#44): before_state is a JSON object (the
-- campaign's current budget and currency, a record's status or stage),
-- NULL when there is none; before_error says why the read failed.
ALTER TABLE approvals ADD COLUMN before_state TEXT;
ALTER TABLE approvals ADD COLUMN before_error TEXT NOT NULL DEFAULT '';
