-- Approval notices go to the webhooks of a tenant's approval routes as
-- well as the alert webhook: each delivery attempt names the route webhook
-- ('' for the alert webhook) and its receiver, the URL redacted to scheme
-- and host (the rest may hold a credential).
ALTER TABLE webhook_deliveries ADD COLUMN endpoint TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN receiver TEXT NOT NULL DEFAULT '';
