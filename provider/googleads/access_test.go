package googleads

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestManagerAccounts(t *testing.T) {
	tests := []struct {
		name    string
		account gtmgate.Account
		code    string // Google's error code in the body; "" when the call succeeds
	}{
		{"client through its manager", gtmgate.Account{ID: "444-000-2222", LoginCustomerID: "555-000-1111"}, ""},
		{"client without login-customer-id", gtmgate.Account{ID: "4440002222"}, "USER_PERMISSION_DENIED"},
		{"client through an account that does not manage it", gtmgate.Account{ID: "4440002222", LoginCustomerID: "9876543210"}, "INVALID_LOGIN_CUSTOMER_ID_SERVING_CUSTOMER_ID_COMBINATION"},
		{"client through an unknown manager", gtmgate.Account{ID: "4440002222", LoginCustomerID: "1112223333"}, "USER_PERMISSION_DENIED"},
		{"direct account", gtmgate.Account{ID: "1234567890"}, ""},
		{"direct account through a manager that does not manage it", gtmgate.Account{ID: "1234567890", LoginCustomerID: "5550001111"}, "INVALID_LOGIN_CUSTOMER_ID_SERVING_CUSTOMER_ID_COMBINATION"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.Account = tt.account
			out, err := e.Run(t, "google_ads_campaigns", listInput)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(providertest.Items(t, out)) == 0 {
					t.Error("no campaigns")
				}
				return
			}
			ge := providertest.WantCode(t, err, gtmgate.EUpstream)
			if d := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 403 || !strings.Contains(d.Body, tt.code) {
				t.Fatalf("status %d, body %s; want 403 %s", d.Status, d.Body, tt.code)
			}
			if !strings.Contains(ge.Hint, "login_customer_id") {
				t.Errorf("hint %q does not point at login_customer_id", ge.Hint)
			}
		})
	}
}

func TestLoginCustomerIDOnEveryRequest(t *testing.T) {
	e := newEnvWith(t, envOptions{account: 2})
	if e.Account.LoginCustomerID == "" {
		t.Fatal("the sandbox's third account should be reached through a manager")
	}
	out := e.MustRun(t, "google_ads_campaigns", listInput)
	if out["currency"] != "AUD" {
		t.Errorf("currency = %v, want AUD", out["currency"])
	}
	e.MustRun(t, "google_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"44000100001","amount":20}`)
	e.MustRun(t, "google_ads_keywords", `{"rationale":"r","action":"add_negative","campaign_id":"44000100002","keyword_text":"free","match_type":"BROAD"}`)
	e.MustRun(t, "google_ads_report", `{"rationale":"r","resource":"campaign","metrics":["clicks"]}`)
	if len(e.log.logins) < 5 {
		t.Fatalf("requests = %d", len(e.log.logins))
	}
	for i, got := range e.log.logins {
		if got != "5550001111" {
			t.Errorf("request %d (%s): login-customer-id = %q, want 5550001111", i, e.log.paths[i], got)
		}
	}
}

func TestMalformedLoginCustomerIDRefusedLocally(t *testing.T) {
	e := newEnv(t)
	e.Account = gtmgate.Account{ID: "4440002222", LoginCustomerID: "manager"}
	_, err := e.Run(t, "google_ads_campaigns", listInput)
	providertest.WantCode(t, err, gtmgate.EValidation)
	if e.sb.Requests() != 0 {
		t.Errorf("requests = %d, want 0", e.sb.Requests())
	}
}
