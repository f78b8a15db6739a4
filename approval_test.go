package gtmgate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// TestCallDigest: the same call has the same digest however its input is
// spelled; a change to any part of what a gate stores changes it; the key
// matters.
func TestCallDigest(t *testing.T) {
	key := []byte("gate key")
	digest := func(key []byte, tenant, tool, action, account, input string) string {
		t.Helper()
		d, err := gtmgate.CallDigest(key, tenant, tool, action, account, json.RawMessage(input))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(key, "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150,"campaign_id":"9"}`)
	if !strings.HasPrefix(base, gtmgate.DigestPrefix) || len(base) != len(gtmgate.DigestPrefix)+64 {
		t.Fatalf("digest %q", base)
	}
	for _, tc := range []struct {
		name                                 string
		key                                  []byte
		tenant, tool, action, account, input string
		same                                 bool
	}{
		{"keys in another order, other spacing", key, "acme", "google_ads_campaigns", "update_budget", "123", "{ \"campaign_id\": \"9\",\n \"amount\": 150, \"action\": \"update_budget\" }", true},
		{"another amount", key, "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":1500,"campaign_id":"9"}`, false},
		{"the same amount written otherwise", key, "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150.0,"campaign_id":"9"}`, false},
		{"another account", key, "acme", "google_ads_campaigns", "update_budget", "124", `{"action":"update_budget","amount":150,"campaign_id":"9"}`, false},
		{"another action", key, "acme", "google_ads_campaigns", "pause", "123", `{"action":"update_budget","amount":150,"campaign_id":"9"}`, false},
		{"another tenant", key, "beta", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150,"campaign_id":"9"}`, false},
		{"another key", []byte("other"), "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150,"campaign_id":"9"}`, false},
		{"no key", nil, "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150,"campaign_id":"9"}`, false},
		{"a field added", key, "acme", "google_ads_campaigns", "update_budget", "123", `{"action":"update_budget","amount":150,"campaign_id":"9","x":null}`, false},
	} {
		if got := digest(tc.key, tc.tenant, tc.tool, tc.action, tc.account, tc.input); (got == base) != tc.same {
			t.Errorf("%s: same digest = %v, want %v", tc.name, got == base, tc.same)
		}
	}
	if _, err := gtmgate.CallDigest(key, "acme", "t", "a", "", json.RawMessage(`{"a":1} {"b":2}`)); err == nil {
		t.Error("two JSON values digested")
	}
}

// TestPolicyVersion: a policy's version follows its content.
func TestPolicyVersion(t *testing.T) {
	p := gtmgate.DefaultApprovalPolicy()
	v := gtmgate.PolicyVersion(p)
	if !strings.HasPrefix(v, "pol_") || len(v) != 16 || gtmgate.PolicyVersion(gtmgate.DefaultApprovalPolicy()) != v {
		t.Fatalf("version %q", v)
	}
	p.NoSelfApproval = true
	if gtmgate.PolicyVersion(p) == v {
		t.Error("a changed policy kept its version")
	}
}
