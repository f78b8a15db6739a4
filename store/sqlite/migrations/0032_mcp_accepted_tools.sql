-- Pinned tool definitions (#42): accepted is the JSON of the upstream tool
-- definitions a person accepted (per tool: the tool as listed, its hash, the
-- gate, who accepted it and when), kept apart from the configuration and the
-- discovered state. NULL marks a server that predates pinning: its first
-- listing after the upgrade pins what it was serving.
ALTER TABLE mcp_servers ADD COLUMN accepted TEXT;
