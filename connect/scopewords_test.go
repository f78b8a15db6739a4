package connect

import (
	"strings"
	"testing"
)

func TestScopeWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, scope, want string
		known             bool
	}{
		{name: "google ads", scope: g + "adwords", want: "Read and change your Google Ads campaigns, budgets and keywords", known: true},
		{name: "gmail send", scope: g + "gmail.send", want: "Send email as you", known: true},
		{name: "calendar", scope: g + "calendar.events", want: "Read and change the events in your Google calendars", known: true},
		{name: "hubspot deals", scope: "crm.objects.deals.read", want: "Read your HubSpot deals", known: true},
		{name: "meta", scope: "ads_management", want: "Read and change your Meta ad accounts, campaigns, ads and budgets", known: true},
		{name: "linkedin", scope: "rw_ads", want: "Read and change your LinkedIn ad accounts and campaigns", known: true},
		{name: "unknown", scope: "x.extra", want: "", known: false},
		{name: "empty", scope: "", want: "", known: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := ScopeWords(tt.scope)
			if got != tt.want || ok != tt.known {
				t.Errorf("ScopeWords(%q) = %q, %v; want %q, %v", tt.scope, got, ok, tt.want, tt.known)
			}
		})
	}
}

// TestEveryScopeHasWords: every scope any provider's link can ask for
// (read, write, single actions', Google's identity) is said in words, and
// each sentence reads as one: a capital first, no full stop.
func TestEveryScopeHasWords(t *testing.T) {
	t.Parallel()
	var all []string
	for _, p := range Providers() {
		for _, key := range p.Covers {
			all = append(all, readScopes[key]...)
			all = append(all, writeScopes[key]...)
		}
		if p.Name == Google {
			all = append(all, googleIdentity...)
		}
	}
	for _, s := range actionScopes {
		all = append(all, s...)
	}
	if len(all) < 20 {
		t.Fatalf("only %d scopes found", len(all))
	}
	for _, s := range all {
		w, ok := ScopeWords(s)
		if !ok {
			t.Errorf("scope %q has no words", s)
			continue
		}
		if w == "" || strings.ToUpper(w[:1]) != w[:1] || strings.HasSuffix(w, ".") {
			t.Errorf("scope %q: words %q", s, w)
		}
	}
}

func TestLinkTitle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, family string
		products     []string
		want         string
	}{
		{"google family", Google, nil, "Google"},
		{"google ads alone", Google, []string{"google_ads"}, "Google Ads"},
		{"gmail alone", Google, []string{"gmail"}, "Gmail"},
		{"two google products", Google, []string{"gmail", "google_calendar"}, "Google"},
		{"hubspot", HubSpot, nil, "HubSpot"},
		{"meta", Meta, nil, "Meta Ads"},
		{"linkedin", LinkedIn, nil, "LinkedIn Ads"},
	}
	for _, tt := range tests {
		if got := mustLookup(t, tt.family).LinkTitle(tt.products); got != tt.want {
			t.Errorf("%s: LinkTitle = %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, p := range Providers() {
		for _, key := range p.Covers {
			if ProductTitle(key) == key {
				t.Errorf("product %s has no title", key)
			}
		}
	}
}
