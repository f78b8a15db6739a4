-- Who consented to an OAuth grant (#39): the signed-in person's actor key
-- ("person:<id>"), '' when a tenant token or a connect code proved the
-- tenant. Codes hand it to the tokens they are exchanged for; refresh
-- tokens to their rotations.
ALTER TABLE oauth_codes ADD COLUMN consented_by TEXT NOT NULL DEFAULT '';
ALTER TABLE oauth_tokens ADD COLUMN consented_by TEXT NOT NULL DEFAULT '';
