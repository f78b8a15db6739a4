package admincli

import (
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
	return inv.listClients(clientList{path: "/admin/oauth-apps", key: "oauth_apps", what: "an OAuth app list", wideTenant: "(gateway-wide)",
		columns: []column{col("PROVIDER", "provider"), col("TENANT", "tenant_id"), col("SECRET", "secret"),
			col("UPDATED", "updated_at"), col("CLIENT ID", "client_id")}, redirectAt: "in each provider's app settings"})
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
	secret, err := inv.clientSecret("oauth-apps put", *secretFile, *onCommandLine)
	if err != nil {
		return err
	}
	if *clientID == "" {
		return usageError("oauth-apps put needs --client-id")
	}
	body := map[string]any{"client_id": *clientID}
	if secret != "" {
		body["client_secret"] = secret
	}
	if list := strings.FieldsFunc(*scopes, func(r rune) bool { return r == ' ' || r == ',' }); len(list) > 0 {
		body["extra_scopes"] = list
	}
	return inv.send("PUT", oauthAppPath(*tenant, p[0]), body)
}
