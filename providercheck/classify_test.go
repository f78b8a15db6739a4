package providercheck

import (
	"errors"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// TestClassify: each way a read can fail becomes the outcome a person acts
// on; a Google rate limit (a 403 the adapter maps to RATE_LIMITED) is not a
// refused account, and does not make the check fail.
func TestClassify(t *testing.T) {
	upstream := func(code string, status int) error {
		return &gtmgate.Error{Code: code, Message: "m", Detail: gtmgate.UpstreamDetail{Provider: "gmail", Status: status}}
	}
	for _, tc := range []struct {
		name          string
		err           error
		outcome       string
		reachable     bool
		authenticated bool
		works         bool
	}{
		{"read succeeded", nil, OK, true, true, true},
		{"not a gtmgate error", errors.New("boom"), Failed, false, false, false},
		{"no answer", upstream(gtmgate.EUpstreamTimeout, 0), Unreachable, false, false, false},
		{"connection refused", upstream(gtmgate.EUpstream, 0), Unreachable, false, false, false},
		{"token refused", upstream(gtmgate.EReauthRequired, 401), Unauthorized, true, false, false},
		{"401 answer", upstream(gtmgate.EUpstream, 401), Unauthorized, true, false, false},
		{"account refused", upstream(gtmgate.EUpstream, 403), Forbidden, true, true, false},
		{"Google's 403 rate limit", upstream(gtmgate.ERateLimited, 403), RateLimited, true, true, true},
		{"429", upstream(gtmgate.ERateLimited, 429), RateLimited, true, true, true},
		{"server error", upstream(gtmgate.EUpstream, 500), Failed, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a Account
			(&Checker{}).classify(&a, tc.err)
			if a.Outcome != tc.outcome || a.Reachable != tc.reachable || a.Authenticated != tc.authenticated || a.works() != tc.works {
				t.Errorf("outcome %s reachable %v authenticated %v works %v; want %s %v %v %v",
					a.Outcome, a.Reachable, a.Authenticated, a.works(), tc.outcome, tc.reachable, tc.authenticated, tc.works)
			}
		})
	}
}
