-- Each person's own accounts (#40): a tenant token's agent may act for a
-- person of the tenant (their own accounts and the shared ones, never
-- another person's) and records who issued it, its owner; a connect link
-- may be issued for a person, so the accounts it connects are theirs. ''
-- for rows written before: agents of the tenant, links for its shared
-- accounts.
ALTER TABLE tenant_tokens ADD COLUMN person TEXT NOT NULL DEFAULT '';
ALTER TABLE tenant_tokens ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE connect_links ADD COLUMN person TEXT NOT NULL DEFAULT '';
