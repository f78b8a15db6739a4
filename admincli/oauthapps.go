package admincli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// oauthApps runs `oauth-apps list|get|put|delete`: the OAuth apps through
// which account owners connect their provider accounts (connect links).
func (inv *invocation) oauthApps(verb string, args []string) error {
	switch verb {
	case "list":
		return inv.listOAuthApps(args)
	case "get", "delete":
		s := newSub("oauth-apps "+verb, "PROVIDER")
		tenant := s.fs.String("tenant", "", "")
		p, err := s.parse(args)
		if err != nil {
			return err
		}
		method := "GET"
		if verb == "delete" {
			method = "DELETE"
		}
		return inv.send(method, oauthAppPath(*tenant, p[0]), nil)
	case "put":
		return inv.putOAuthApp(args)
	}
	return usageError(fmt.Sprintf("unknown command %q", strings.TrimSpace("oauth-apps "+verb)))
}

// oauthAppPath is the app's route: a tenant's own, or the gateway-wide one.
func oauthAppPath(tenant, provider string) string {
	if tenant != "" {
		return "/admin/tenants/" + url.PathEscape(tenant) + "/oauth-apps/" + url.PathEscape(provider)
	}
	return "/admin/oauth-apps/" + url.PathEscape(provider)
}

// listOAuthApps prints the apps as a table, then the redirect URI to
// register at each provider.
func (inv *invocation) listOAuthApps(args []string) error {
	if _, err := newSub("oauth-apps list").parse(args); err != nil {
		return err
	}
	b, err := inv.c.do(inv.ctx, "GET", "/admin/oauth-apps", nil)
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(b)
	}
	var page struct {
		Apps        []map[string]any `json:"oauth_apps"`
		RedirectURI string           `json:"redirect_uri"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return fmt.Errorf("the gateway's answer is not an OAuth app list: %w", err)
	}
	for _, a := range page.Apps {
		if a["tenant_id"] == nil {
			a["tenant_id"] = "(gateway-wide)"
		}
		a["secret"] = "none"
		if a["has_client_secret"] == true {
			a["secret"] = "sealed"
		}
	}
	writeTable(inv.opts.Stdout, []column{col("PROVIDER", "provider"), col("TENANT", "tenant_id"), col("SECRET", "secret"),
		col("UPDATED", "updated_at"), col("CLIENT ID", "client_id")}, page.Apps)
	fmt.Fprintf(inv.opts.Stdout, "\nredirect URI to register in each provider's app settings: %s\n", page.RedirectURI)
	return nil
}

// putOAuthApp creates or replaces an app. The client secret is read from a
// file or stdin, never taken from the command line, where it would stay in
// the shell's history and show in the process list.
func (inv *invocation) putOAuthApp(args []string) error {
	s := newSub("oauth-apps put", "PROVIDER")
	tenant := s.fs.String("tenant", "", "")
	clientID := s.fs.String("client-id", "", "")
	secretFile := s.fs.String("client-secret-file", "", "")
	scopes := s.fs.String("extra-scopes", "", "")
	// Defined only to explain its refusal, without echoing the value.
	onCommandLine := s.fs.String("client-secret", "", "")
	p, err := s.parse(args)
	if err != nil {
		return err
	}
	if *onCommandLine != "" {
		return usageError("oauth-apps put reads the secret from --client-secret-file FILE (\"-\": stdin), not --client-secret: " +
			"a secret on the command line stays in the shell's history and shows in the process list")
	}
	if *clientID == "" {
		return usageError("oauth-apps put needs --client-id")
	}
	body := map[string]any{"client_id": *clientID}
	if *secretFile != "" {
		b, err := inv.readInput(*secretFile)
		if err != nil {
			return inputError("oauth-apps put: --client-secret-file: " + err.Error())
		}
		secret := strings.TrimSpace(string(b))
		if secret == "" {
			return inputError("oauth-apps put: --client-secret-file: it is empty")
		}
		body["client_secret"] = secret
	}
	if list := strings.FieldsFunc(*scopes, func(r rune) bool { return r == ' ' || r == ',' }); len(list) > 0 {
		body["extra_scopes"] = list
	}
	return inv.send("PUT", oauthAppPath(*tenant, p[0]), body)
}
