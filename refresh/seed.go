package refresh

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

// SeedRecord is the OAuth seeding record of seed 001, the body of
// POST /admin/seed-oauth. ClientSecret may be empty for a public client.
type SeedRecord struct {
	TenantID      string `json:"tenant_id"`
	Provider      string `json:"provider"`
	AccountID     string `json:"account_id"`
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"client_secret"`
	TokenEndpoint string `json:"token_endpoint"`
	RefreshToken  string `json:"refresh_token"`
	// Resource, for an upstream MCP server's grant ("mcp:<server>"), is the
	// server's canonical URI (RFC 8707), sent with every refresh.
	Resource string `json:"resource,omitempty"`
}

// validate checks rec's fields, its token endpoint, that the tenant exists
// and that the account is one of the tenant's accounts at the provider.
func (r *Refresher) validate(ctx context.Context, rec SeedRecord) error {
	var missing []string
	for _, f := range []struct{ name, value string }{
		{"tenant_id", rec.TenantID}, {"provider", rec.Provider}, {"account_id", rec.AccountID},
		{"client_id", rec.ClientID}, {"token_endpoint", rec.TokenEndpoint}, {"refresh_token", rec.RefreshToken},
	} {
		if strings.TrimSpace(f.value) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return gtmgate.Errorf(gtmgate.EValidation, "%s required", strings.Join(missing, ", ")+pluralIs(len(missing)))
	}
	if err := r.checkEndpoint(rec.TokenEndpoint); err != nil {
		return err
	}
	t, err := r.opts.Store.GetTenant(ctx, rec.TenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return tenantNotFound(rec.TenantID)
	} else if err != nil {
		return err
	}
	// An upstream MCP server's grant ("mcp:<server>") is the tenant's or a
	// person's, not an account of the tenant's configuration.
	if strings.HasPrefix(rec.Provider, gtmgate.MCPGrantPrefix) {
		return nil
	}
	if _, ok := t.Providers[rec.Provider].Account(rec.AccountID); !ok {
		return gtmgate.Errorf(gtmgate.EValidation, "account %q is not a %s account in tenant %q's configuration", rec.AccountID, rec.Provider, rec.TenantID).
			WithHint("add it under providers." + rec.Provider + ".accounts with PUT /admin/tenants/" + rec.TenantID)
	}
	return nil
}

func pluralIs(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}

// checkEndpoint accepts an absolute https URL without credentials or
// fragment; http only on a loopback host and with AllowInsecureTokenEndpoint.
func (r *Refresher) checkEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || (u.Scheme != "https" && u.Scheme != "http") {
		return gtmgate.Errorf(gtmgate.EValidation, "token_endpoint must be an absolute https URL without credentials or fragment")
	}
	if u.Scheme == "https" {
		return nil
	}
	if !r.opts.AllowInsecureTokenEndpoint || !egress.LoopbackHost(u.Hostname()) {
		return gtmgate.Errorf(gtmgate.EValidation, "token_endpoint must use https: the refresh token and client secret are sent to it").
			WithHint("use the provider's https token endpoint")
	}
	return nil
}
