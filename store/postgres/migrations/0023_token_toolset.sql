-- The toolset a tenant token's agent is limited to (#40): the name of one
-- of the tenant's toolsets (tenant config), '' for every tool and account.
ALTER TABLE tenant_tokens ADD COLUMN toolset TEXT NOT NULL DEFAULT '';
