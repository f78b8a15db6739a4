package connect

import (
	"context"
	"slices"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

func testRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	read := gtmgate.Action{Name: "list", Category: gtmgate.CategoryCRMRead}
	tool := func(name, domain, provider string, actions ...gtmgate.Action) gtmgate.Tool {
		return gtmgate.Tool{Name: name, Domain: domain, Provider: provider, Actions: actions, Run: run}
	}
	return registry.MustNew(
		tool("email_messages", "email", "gmail", read),
		tool("email_send", "email", "gmail", gtmgate.Action{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true, Additive: true}),
		tool("ga4_report", "analytics", "ga4", gtmgate.Action{Name: "run_report", Category: gtmgate.CategoryAnalyticsReport}),
		tool("crm_contacts", "crm", "hubspot", read,
			gtmgate.Action{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true}),
		tool("meta_ads_campaigns", "ads", "meta_ads", read),
	)
}

func TestScopes(t *testing.T) {
	t.Parallel()
	reg := testRegistry(t)
	google, hubspot := mustLookup(t, Google), mustLookup(t, HubSpot)
	tests := []struct {
		name     string
		p        Provider
		keys     []string
		readOnly bool
		extra    []string
		want     []string
	}{
		{name: "read-only google", p: google, readOnly: true, want: []string{"openid", "email",
			g + "analytics.readonly", g + "gmail.readonly"}},
		{name: "google with sending", p: google, want: []string{"openid", "email",
			g + "analytics.readonly", g + "gmail.readonly", g + "gmail.send"}},
		{name: "ga4 alone asks no identity", p: google, keys: []string{"ga4"}, want: []string{g + "analytics.readonly"}},
		{name: "read-only hubspot", p: hubspot, readOnly: true, want: sorted(slices.Clone(readScopes["hubspot"]))},
		{name: "hubspot update adds the contacts write scope only", p: hubspot,
			want: sorted(append([]string{"crm.objects.contacts.write"}, readScopes["hubspot"]...))},
		{name: "extra scopes once, after the tools'", p: google, keys: []string{"ga4"},
			extra: []string{g + "analytics.readonly", "x.extra", "x.extra", ""},
			want:  []string{g + "analytics.readonly", "x.extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			needs := Needs(reg, nil, tt.p, tt.keys, tt.readOnly)
			for _, n := range needs {
				if !tt.p.Covering(n.Provider) {
					t.Errorf("need %+v is not %s's", n, tt.p.Name)
				}
			}
			got := Scopes(tt.p, needs, tt.extra)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Scopes = %q\nwant     %q", got, tt.want)
			}
			// Another order of the same needs asks the same.
			slices.Reverse(needs)
			if again := Scopes(tt.p, needs, tt.extra); !slices.Equal(again, got) {
				t.Errorf("order-dependent: %q vs %q", again, got)
			}
		})
	}
}

// TestScopesIgnoreOtherProviders: needs of another family ask nothing.
func TestScopesIgnoreOtherProviders(t *testing.T) {
	t.Parallel()
	needs := []ToolNeed{{Provider: "meta_ads", Tool: "meta_ads_campaigns", Action: "update_status", Mutating: true},
		{Provider: "hubspot", Tool: "crm_contacts", Action: "list"}}
	if got := Scopes(mustLookup(t, Google), needs, nil); len(got) != 0 {
		t.Errorf("Scopes = %q, want none", got)
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }
