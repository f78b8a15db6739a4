-- The products a connect link connects (#43 item 13): the provider keys of
-- its family whose scopes it asks for and whose accounts it discovers,
-- space-separated; '' for every product of the family.
ALTER TABLE connect_links ADD COLUMN products TEXT NOT NULL DEFAULT '';
