package metaads

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

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
				// A Business Use Case throttle says when access returns.
				if throttled(code) && code >= 80000 && ge.RetryAfter != throttleMinutes*60 {
					t.Errorf("retry_after = %d, want Meta's estimated_time_to_regain_access of %d s", ge.RetryAfter, throttleMinutes*60)
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

// TestRegainAccess: Meta's own wait, from either usage header, the longest
// of what it lists; nothing from headers that are absent, garbled or absurd.
func TestRegainAccess(t *testing.T) {
	for _, tc := range []struct {
		name, buc, account string
		want               time.Duration
	}{
		{"no headers", "", "", 0},
		{"business use case", `{"123":[{"type":"ads_management","call_count":100,"estimated_time_to_regain_access":5}]}`, "", 5 * time.Minute},
		{"longest of several", `{"1":[{"estimated_time_to_regain_access":2},{"estimated_time_to_regain_access":7}],"2":[{"estimated_time_to_regain_access":3}]}`, "", 7 * time.Minute},
		{"not blocked", `{"1":[{"type":"ads_insights","call_count":40,"estimated_time_to_regain_access":0}]}`, "", 0},
		{"ad account reset", "", `{"acc_id_util_pct":100,"reset_time_duration":90,"ads_api_access_tier":"standard_access"}`, 90 * time.Second},
		{"the longer of both", `{"1":[{"estimated_time_to_regain_access":1}]}`, `{"reset_time_duration":300}`, 5 * time.Minute},
		{"garbled", `{"1":"x"}`, `[1]`, 0},
		{"absurd", `{"1":[{"estimated_time_to_regain_access":1e12}]}`, `{"reset_time_duration":-5}`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.buc != "" {
				h.Set("X-Business-Use-Case-Usage", tc.buc)
			}
			if tc.account != "" {
				h.Set("X-Ad-Account-Usage", tc.account)
			}
			if got := regainAccess(&upstream.Response{Status: 400, Header: h}); got != tc.want {
				t.Errorf("regainAccess = %s, want %s", got, tc.want)
			}
		})
	}
}

func FuzzClassify(f *testing.F) {
	f.Add(400, `{"error":{"message":"m","type":"OAuthException","code":190,"error_subcode":463}}`, "")
	f.Add(400, `{"error":{"code":"17"}}`, "")
	f.Add(400, `{"error":{"code":80004}}`, `{"1":[{"estimated_time_to_regain_access":5}]}`)
	f.Fuzz(func(t *testing.T, status int, body, usage string) {
		resp := &upstream.Response{Status: status, Header: http.Header{"X-Business-Use-Case-Usage": {usage}}, Body: []byte(body)}
		f := classify(resp, upstream.StatusFailure(resp))
		if f.Code == "" || (f.Refresh && f.Code == gtmgate.ERateLimited) || f.RetryAfter < 0 || f.RetryAfter > 24*time.Hour {
			t.Fatalf("classify = %+v", f)
		}
	})
}
