package metaads

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

const campaignReport = `{"rationale":"r","level":"campaign"}`

// TestRefusedToken: Meta refuses an expired, revoked or unknown token with
// OAuthException 190 and HTTP 400 (developers.facebook.com/docs/graph-api/guides/error-handling,
// read 2026-11). That is the credential failure a 401 is elsewhere: the token
// is renewed once and the call sent again; a token that cannot be renewed,
// or is refused again, needs the account connected again, and the error
// names the connect link.
func TestRefusedToken(t *testing.T) {
	const stale, fresh = "EAAB-stale-token-123456", "EAAB-fresh-but-revoked"
	tests := []struct {
		name     string
		before   func(*Sandbox)
		token    gtmgate.TokenSource
		code     string
		requests int
	}{
		{"expired token renewed and the call sent again", func(s *Sandbox) { s.ErrorNext(190, 1) },
			providertest.RefreshingToken{Stale: SandboxToken, Fresh: SandboxToken}, "", 2},
		{"renewed token refused too", func(*Sandbox) {}, providertest.RefreshingToken{Stale: stale, Fresh: fresh}, gtmgate.EReauthRequired, 2},
		{"token that cannot be renewed", func(*Sandbox) {}, gtmgate.StaticToken(stale), gtmgate.EReauthRequired, 1},
		{"session invalid (102) is an expired token too", func(s *Sandbox) { s.ErrorNext(102, 1) },
			providertest.RefreshingToken{Stale: SandboxToken, Fresh: SandboxToken}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.before(e.sb)
			err := e.RunWithTokens(t, "meta_ads_insights", tt.token, campaignReport)
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			ge := providertest.WantCode(t, err, tt.code)
			if d, _ := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 400 || !strings.Contains(d.Body, `"code":190`) {
				t.Errorf("detail = %+v", ge.Detail)
			}
			if !strings.HasPrefix(ge.Hint, hintExpiredToken) || !strings.Contains(ge.Hint, "POST /admin/tenants/{tenant_id}/connect-links") {
				t.Errorf("hint = %q, want the connect link first", ge.Hint)
			}
			for _, tok := range []string{stale, fresh} {
				if strings.Contains(ge.Error()+ge.Hint+fmt.Sprint(ge.Detail), tok) {
					t.Errorf("token %q leaked", tok)
				}
			}
		})
	}
}

// TestGraphErrorCodes: every error code Meta documents for throttling and
// permissions, sent with HTTP 400, through the adapter against the sandbox
// (Meta's "Handling Errors" and "Rate Limits" references, read 2026-11; see
// errors.go). Throttles are RATE_LIMITED and not sent again at once; a
// missing permission needs the account re-connected with it.
func TestGraphErrorCodes(t *testing.T) {
	tests := []struct {
		codes []int
		want  string
		hint  string
	}{
		{[]int{4, 17, 32, 341, 613, 80000, 80004, 80014}, gtmgate.ERateLimited, hintThrottled},
		{[]int{10, 200, 294, 299}, gtmgate.EReauthRequired, hintPermission},
		{[]int{100, 2635, 80015}, gtmgate.EUpstream, ""},
	}
	for _, tt := range tests {
		for _, code := range tt.codes {
			t.Run(fmt.Sprint(code), func(t *testing.T) {
				e := newEnv(t)
				e.sb.ErrorNext(code, 1)
				_, err := e.Run(t, "meta_ads_insights", campaignReport)
				ge := providertest.WantCode(t, err, tt.want)
				if tt.hint != "" && ge.Hint != tt.hint {
					t.Errorf("hint = %q, want %q", ge.Hint, tt.hint)
				}
				if d, _ := ge.Detail.(gtmgate.UpstreamDetail); d.Status != 400 || !strings.Contains(d.Body, fmt.Sprintf(`"code":%d`, code)) {
					t.Errorf("detail = %+v", ge.Detail)
				}
				if !strings.Contains(ge.Message, fmt.Sprintf("(#%d)", code)) && code != 2635 {
					t.Errorf("message %q lacks Meta's", ge.Message)
				}
				if e.sb.Requests() != 1 {
					t.Errorf("requests = %d, want 1", e.sb.Requests())
				}
			})
		}
	}
}

func TestProviderErrors(t *testing.T) {
	pause := `{"rationale":"r","action":"update_status","campaign_id":"236100000000000","status":"PAUSED"}`
	tests := []struct {
		name, tool, input string
		fault             func(*Sandbox)
		code              string
		requests          int
	}{
		{"read retried once on 500", "meta_ads_insights", campaignReport, func(s *Sandbox) { s.FailNext(500, 1) }, "", 2},
		{"400 carries message", "meta_ads_insights", `{"rationale":"r","fields":["bogus_metric"]}`, func(*Sandbox) {}, gtmgate.EUpstream, 1},
		{"throttling is rate limited", "meta_ads_insights", campaignReport, func(s *Sandbox) { s.ThrottleNext(1) }, gtmgate.ERateLimited, 1},
		// The ownership read succeeds; the POST fails once and is not repeated.
		{"mutation not retried", "meta_ads_campaigns", pause, func(s *Sandbox) { s.FailNextPost(500, 1) }, gtmgate.EUpstream, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.fault(e.sb)
			_, err := e.Run(t, tt.tool, tt.input)
			if tt.code == "" && err != nil {
				t.Fatal(err)
			}
			if tt.code != "" {
				ge := providertest.WantCode(t, err, tt.code)
				if tt.name == "400 carries message" && !strings.Contains(ge.Message, "bogus_metric is not valid for fields param") {
					t.Errorf("message = %q", ge.Message)
				}
			}
			if e.sb.Requests() != tt.requests {
				t.Errorf("requests = %d, want %d", e.sb.Requests(), tt.requests)
			}
		})
	}
}

func TestFailedMutationLeavesState(t *testing.T) {
	e := newEnv(t)
	e.sb.FailNextPost(500, 1)
	_, err := e.Run(t, "meta_ads_campaigns", `{"rationale":"r","action":"update_budget","campaign_id":"236100000000000","amount":10}`)
	providertest.WantCode(t, err, gtmgate.EUpstream)
	if got := e.sb.accounts["1012345678901234"].Campaigns[0].DailyBudget; got != 8000 {
		t.Errorf("budget = %d after a failed change", got)
	}
}

func TestClassifyLeavesOtherAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		body   string
	}{
		{500, `{"error":{"message":"An unexpected error has occurred. Please retry your request later.","type":"FacebookApiException","code":2}}`},
		{400, `{"error":{"message":"(#100) Invalid parameter","type":"OAuthException","code":100}}`},
		{502, `<html>Bad Gateway</html>`},
	} {
		resp := &upstream.Response{Status: tc.status, Header: http.Header{}, Body: []byte(tc.body)}
		if got, want := classify(resp, upstream.StatusFailure(resp)), upstream.StatusFailure(resp); got != want {
			t.Errorf("classify(%d %s) = %+v, want %+v", tc.status, tc.body, got, want)
		}
	}
}

func FuzzClassify(f *testing.F) {
	f.Add(400, `{"error":{"message":"m","type":"OAuthException","code":190,"error_subcode":463}}`)
	f.Add(400, `{"error":{"code":"17"}}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		resp := &upstream.Response{Status: status, Header: http.Header{}, Body: []byte(body)}
		if f := classify(resp, upstream.StatusFailure(resp)); f.Code == "" || (f.Refresh && f.Code == gtmgate.ERateLimited) {
			t.Fatalf("classify = %+v", f)
		}
	})
}
