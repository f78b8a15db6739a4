-- The toolset an OAuth grant's agent is limited to (#40): the toolset of
-- the tenant token that proved the tenant at consent (a grant never does
-- more than that token's agent), or the one a signed-in person chose;
-- '' for every tool and account. Codes hand it to their tokens, refresh
-- tokens to their rotations.
ALTER TABLE oauth_codes ADD COLUMN toolset TEXT NOT NULL DEFAULT '';
ALTER TABLE oauth_tokens ADD COLUMN toolset TEXT NOT NULL DEFAULT '';
