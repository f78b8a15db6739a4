package storetest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

// mcpServer returns a server of tenant named name whose bearer token is
// "<tenant>-<name>-token-plain".
func mcpServer(tenant, name string) *gtmgate.MCPServer {
	return &gtmgate.MCPServer{TenantID: tenant, Name: name, URL: "https://" + name + ".example/mcp",
		Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: tenant + "-" + name + "-token-plain"}}
}

// rawMCPSecret is the secret column of a server as stored.
func rawMCPSecret(t *testing.T, s gtmgate.Store, tenant, name string) string {
	t.Helper()
	return rawString(t, s, "SELECT secret FROM mcp_servers WHERE tenant_id = ? AND name = ?", tenant, name)
}

// wantSealed checks that a secret column holds plain sealed ("" stays "").
func wantSealed(t *testing.T, raw, plain string) {
	t.Helper()
	if plain == "" {
		if raw != "" {
			t.Errorf("secret at rest = %q, want empty (no secret)", raw)
		}
		return
	}
	if strings.Contains(raw, plain) || strings.Contains(raw, "plain") || !strings.HasPrefix(raw, "v1:") {
		t.Errorf("secret at rest = %q, want a sealed value", raw)
	}
}

// testMCPServers: each way of authenticating is created, read back whole
// (secret opened, allow-list and overrides kept), its secret sealed at rest
// or empty when there is none, then replaced by another configuration:
// the creation time stays, the update time moves.
func testMCPServers(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")

	for _, tc := range []struct {
		name          string
		first, second *gtmgate.MCPServer
	}{
		{
			name:  "none then bearer",
			first: &gtmgate.MCPServer{Name: "docs", URL: "https://docs.example/mcp", Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}},
			second: &gtmgate.MCPServer{Name: "docs", URL: "https://docs.example/v2/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: "docs-token-plain"}},
		},
		{
			name: "bearer with allow-list then no secret",
			first: &gtmgate.MCPServer{Name: "slack", URL: "https://slack.example/mcp",
				Auth:  gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: "xoxb-plain"},
				Tools: []string{"list_channels", "post_message"}},
			second: &gtmgate.MCPServer{Name: "slack", URL: "https://slack.example/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}},
		},
		{
			name: "header with overrides then another value",
			first: &gtmgate.MCPServer{Name: "apollo", URL: "https://apollo.example/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Header: "X-Api-Key", Secret: "apollo-key-plain"},
				Overrides: map[string]gtmgate.MCPToolOverride{
					"search_people": {Category: gtmgate.CategorySearchQuery, Mutating: new(false)},
					"enrich":        {Destructive: new(true)},
				}},
			second: &gtmgate.MCPServer{Name: "apollo", URL: "https://apollo.example/mcp",
				Auth:      gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Header: "Authorization", Secret: "Token apollo-key-2-plain"},
				Overrides: map[string]gtmgate.MCPToolOverride{"enrich": {Mutating: new(true)}}},
		},
		{
			name: "client credentials then fewer scopes",
			first: &gtmgate.MCPServer{Name: "crm", URL: "https://crm.example/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthClientCredentials, TokenURL: "https://crm.example/oauth/token",
					ClientID: "crm-client", Secret: "crm-secret-plain", Scopes: []string{"contacts.read", "deals.write"}},
				Tools: []string{"get_contact"}},
			second: &gtmgate.MCPServer{Name: "crm", URL: "https://crm.example/mcp",
				Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthClientCredentials, TokenURL: "https://crm.example/oauth/token",
					ClientID: "crm-client-2", Secret: "crm-secret-2-plain", Scopes: []string{"contacts.read"}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, second := tc.first, tc.second
			first.TenantID, second.TenantID = "acme", "acme"

			created, err := s.PutMCPServer(ctx, first)
			must(t, err)
			if !created || first.CreatedAt.IsZero() || !first.UpdatedAt.Equal(first.CreatedAt) {
				t.Errorf("first put: created = %v, times %v/%v; want created with both times set", created, first.CreatedAt, first.UpdatedAt)
			}
			got, err := s.GetMCPServer(ctx, "acme", first.Name)
			must(t, err)
			if diff := cmp.Diff(first, got); diff != "" {
				t.Errorf("GetMCPServer after create (-want +got):\n%s", diff)
			}
			wantSealed(t, rawMCPSecret(t, s, "acme", first.Name), first.Auth.Secret)

			// The store's clock is at the microsecond: let it move.
			time.Sleep(2 * time.Millisecond)
			created, err = s.PutMCPServer(ctx, second)
			must(t, err)
			if created || !second.CreatedAt.Equal(first.CreatedAt) || !second.UpdatedAt.After(first.UpdatedAt) {
				t.Errorf("replace: created = %v, times %v/%v; want false, created at %v, updated after %v",
					created, second.CreatedAt, second.UpdatedAt, first.CreatedAt, first.UpdatedAt)
			}
			got, err = s.GetMCPServer(ctx, "acme", first.Name)
			must(t, err)
			if diff := cmp.Diff(second, got); diff != "" {
				t.Errorf("GetMCPServer after replace (-want +got):\n%s", diff)
			}
			wantSealed(t, rawMCPSecret(t, s, "acme", first.Name), second.Auth.Secret)
			if raw := rawString(t, s, "SELECT config FROM mcp_servers WHERE tenant_id = ? AND name = ?", "acme", first.Name); strings.Contains(raw, "plain") {
				t.Errorf("config at rest holds the secret: %s", raw)
			}
		})
	}
}

// testMCPServerState: discovery's state is saved apart from the
// configuration: saving it changes neither the configuration nor its
// update time, replacing the configuration keeps it, and Put hands back
// the stored state whatever the caller's struct held.
func testMCPServerState(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")

	m := mcpServer("acme", "slack")
	_, err := s.PutMCPServer(ctx, m)
	must(t, err)
	got, err := s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if diff := cmp.Diff(gtmgate.MCPServerState{}, got.State); diff != "" {
		t.Errorf("state of a new server (-want +got):\n%s", diff)
	}

	refreshed, checked := t0, t0.Add(timeStep(1))
	up := gtmgate.MCPServerState{
		Tools:            json.RawMessage(`[{"name":"post_message","description":"Posts a message.","inputSchema":{"type":"object","properties":{"channel":{"type":"string"}}},"annotations":{"destructiveHint":false}}]`),
		ToolsRefreshedAt: &refreshed, CheckedAt: &checked, Reachable: true, LatencyMS: 12.5,
	}
	down := up
	downAt := t0.Add(timeStep(2))
	down.CheckedAt, down.Reachable, down.LatencyMS, down.Error = &downAt, false, 0, "connection refused"

	for _, tc := range []struct {
		name  string
		state gtmgate.MCPServerState
	}{
		{"reachable", up},
		{"down, last tools kept", down},
		{"cleared", gtmgate.MCPServerState{}},
		{"reachable again", up},
	} {
		t.Run(tc.name, func(t *testing.T) {
			must(t, s.SaveMCPServerState(ctx, "acme", "slack", tc.state))
			got, err := s.GetMCPServer(ctx, "acme", "slack")
			must(t, err)
			want := *m
			want.State = tc.state
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("GetMCPServer after SaveMCPServerState (-want +got):\n%s", diff)
			}
		})
	}

	// Replacing the configuration keeps the state, whatever the caller's
	// struct says, and hands it back.
	replaced := mcpServer("acme", "slack")
	replaced.URL, replaced.Tools = "https://slack.example/v2/mcp", []string{"post_message"}
	replaced.State = gtmgate.MCPServerState{Error: "the caller's, never stored"}
	created, err := s.PutMCPServer(ctx, replaced)
	must(t, err)
	if created {
		t.Error("replace reported created")
	}
	if diff := cmp.Diff(up, replaced.State); diff != "" {
		t.Errorf("state handed back by Put (-want +got):\n%s", diff)
	}
	got, err = s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if diff := cmp.Diff(replaced, got); diff != "" {
		t.Errorf("GetMCPServer after replace (-want +got):\n%s", diff)
	}

	// A new server's state is empty whatever the caller's struct says.
	fresh := mcpServer("acme", "github")
	fresh.State = up
	_, err = s.PutMCPServer(ctx, fresh)
	must(t, err)
	got, err = s.GetMCPServer(ctx, "acme", "github")
	must(t, err)
	if diff := cmp.Diff(gtmgate.MCPServerState{}, got.State); diff != "" {
		t.Errorf("new server's stored state (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(got, fresh); diff != "" {
		t.Errorf("Put of a new server left (-get +put):\n%s", diff)
	}

	// A state that is not JSON is the caller's mistake.
	bad := gtmgate.MCPServerState{Tools: json.RawMessage(`[{"name":`)}
	if err := s.SaveMCPServerState(ctx, "acme", "slack", bad); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("SaveMCPServerState with broken tools JSON: %v, want %s", err, gtmgate.EValidation)
	}
}

// testMCPServerErrors: unknown servers, another tenant's server and
// unknown tenants are ErrNotFound; a server without tenant or name is
// refused.
func testMCPServerErrors(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "beta")
	acme := mcpServer("acme", "slack")
	_, err := s.PutMCPServer(ctx, acme)
	must(t, err)

	for _, tc := range []struct {
		name string
		call func() error
		want error
	}{
		{"get unknown name", func() error { _, err := s.GetMCPServer(ctx, "acme", "github"); return err }, gtmgate.ErrNotFound},
		{"get unknown tenant", func() error { _, err := s.GetMCPServer(ctx, "nobody", "slack"); return err }, gtmgate.ErrNotFound},
		{"get another tenant's", func() error { _, err := s.GetMCPServer(ctx, "beta", "slack"); return err }, gtmgate.ErrNotFound},
		{"delete unknown name", func() error { return s.DeleteMCPServer(ctx, "acme", "github") }, gtmgate.ErrNotFound},
		{"delete another tenant's", func() error { return s.DeleteMCPServer(ctx, "beta", "slack") }, gtmgate.ErrNotFound},
		{"save state of unknown name", func() error {
			return s.SaveMCPServerState(ctx, "acme", "github", gtmgate.MCPServerState{Reachable: true})
		}, gtmgate.ErrNotFound},
		{"save state of another tenant's", func() error {
			return s.SaveMCPServerState(ctx, "beta", "slack", gtmgate.MCPServerState{Error: "beta's"})
		}, gtmgate.ErrNotFound},
		{"put for unknown tenant", func() error { _, err := s.PutMCPServer(ctx, mcpServer("nobody", "slack")); return err }, gtmgate.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.call(), tc.want) })
	}

	for _, m := range []*gtmgate.MCPServer{mcpServer("", "slack"), mcpServer("acme", "")} {
		if _, err := s.PutMCPServer(ctx, m); gtmgate.ErrorCode(err) != gtmgate.EValidation {
			t.Errorf("PutMCPServer(%q, %q) = %v, want %s", m.TenantID, m.Name, err, gtmgate.EValidation)
		}
	}

	// None of the refused calls touched acme's server.
	got, err := s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if diff := cmp.Diff(acme, got); diff != "" {
		t.Errorf("acme's server after refused calls (-want +got):\n%s", diff)
	}
	if _, err := s.GetMCPServer(ctx, "nobody", "slack"); err == nil {
		t.Error("a put for an unknown tenant stored a server")
	}
}

// testMCPServerList: servers are listed per tenant by name, or all by
// tenant then name; two tenants' servers of the same name are independent
// (each its own URL and secret, deleting one leaves the other).
func testMCPServerList(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	for _, id := range []string{"acme", "beta", "gamma"} {
		putTenant(t, s, id)
	}

	empty, err := s.ListMCPServers(ctx, "")
	must(t, err)
	if empty == nil || len(empty) != 0 {
		t.Errorf("ListMCPServers of an empty store = %#v, want an empty list", empty)
	}

	acmeSlack, acmeGithub := mcpServer("acme", "slack"), mcpServer("acme", "github")
	betaSlack, betaApollo := mcpServer("beta", "slack"), mcpServer("beta", "apollo")
	betaSlack.URL = "https://beta-slack.example/mcp"
	for _, m := range []*gtmgate.MCPServer{acmeSlack, betaSlack, acmeGithub, betaApollo} {
		created, err := s.PutMCPServer(ctx, m)
		must(t, err)
		if !created {
			t.Errorf("put %s/%s: not created", m.TenantID, m.Name)
		}
	}
	must(t, s.SaveMCPServerState(ctx, "beta", "slack", gtmgate.MCPServerState{Reachable: true, LatencyMS: 3}))
	betaSlack.State = gtmgate.MCPServerState{Reachable: true, LatencyMS: 3}

	for _, tc := range []struct {
		tenant string
		want   []*gtmgate.MCPServer
	}{
		{"acme", []*gtmgate.MCPServer{acmeGithub, acmeSlack}},
		{"beta", []*gtmgate.MCPServer{betaApollo, betaSlack}},
		{"gamma", []*gtmgate.MCPServer{}},
		{"nobody", []*gtmgate.MCPServer{}},
		{"", []*gtmgate.MCPServer{acmeGithub, acmeSlack, betaApollo, betaSlack}},
	} {
		name := "tenant " + tc.tenant
		if tc.tenant == "" {
			name = "every tenant"
		}
		t.Run(name, func(t *testing.T) {
			got, err := s.ListMCPServers(ctx, tc.tenant)
			must(t, err)
			if got == nil {
				t.Error("ListMCPServers returned nil, want an empty list")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ListMCPServers(%q) (-want +got):\n%s", tc.tenant, diff)
			}
		})
	}

	// The two servers named slack are each their tenant's.
	for _, want := range []*gtmgate.MCPServer{acmeSlack, betaSlack} {
		got, err := s.GetMCPServer(ctx, want.TenantID, "slack")
		must(t, err)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GetMCPServer(%q, slack) (-want +got):\n%s", want.TenantID, diff)
		}
		wantSealed(t, rawMCPSecret(t, s, want.TenantID, "slack"), want.Auth.Secret)
	}
	if got, err := s.GetMCPServer(ctx, "acme", "slack"); err == nil && got.State.Reachable {
		t.Error("beta's saved state shows on acme's server of the same name")
	}

	must(t, s.DeleteMCPServer(ctx, "acme", "slack"))
	_, err = s.GetMCPServer(ctx, "acme", "slack")
	wantErr(t, err, gtmgate.ErrNotFound)
	wantErr(t, s.DeleteMCPServer(ctx, "acme", "slack"), gtmgate.ErrNotFound)
	all, err := s.ListMCPServers(ctx, "")
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.MCPServer{acmeGithub, betaApollo, betaSlack}, all); diff != "" {
		t.Errorf("ListMCPServers after deleting acme's slack (-want +got):\n%s", diff)
	}

	// A server put again after its deletion is new, with no state.
	again := mcpServer("acme", "slack")
	created, err := s.PutMCPServer(ctx, again)
	must(t, err)
	if !created {
		t.Error("put after delete: not created")
	}
	got, err := s.GetMCPServer(ctx, "acme", "slack")
	must(t, err)
	if diff := cmp.Diff(again, got); diff != "" {
		t.Errorf("GetMCPServer after put again (-want +got):\n%s", diff)
	}
}
