package metaads

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// graphErrorBody is Graph's error envelope: {"error": {message, type, code,
// error_subcode, fbtrace_id}}.
type graphErrorBody struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    int    `json:"code"`
		Subcode int    `json:"error_subcode"`
	} `json:"error"`
}

// Graph error codes, which Meta sends with HTTP 400 whatever they mean.
// From Meta's "Handling Errors" reference
// (developers.facebook.com/docs/graph-api/guides/error-handling, read
// 2026-11): 190 "Access token has expired" and 102 "API Session" (the token
// expired, was revoked or is invalid: get a new access token); 4 "API Too
// Many Calls", 17 "API User Too Many Calls" and 341 "Application limit
// reached" (throttling: wait and retry); 10 "API Permission Denied" and
// 200–299 "API Permission" (a permission not granted or removed). From
// "Rate Limits" (developers.facebook.com/docs/graph-api/overview/rate-limiting):
// 32 (page-level) and 613 (custom-level) throttling, and the Business Use
// Case limits of the Marketing API, 80000–80014; Meta's Marketing API rate
// limiting page (developers.facebook.com/docs/marketing-api/overview/rate-limiting)
// blocks a throttled ad account for 60 seconds, 300 in the development tier.
var (
	expiredTokenCodes = []int{190, 102}
	throttleCodes     = []int{4, 17, 32, 341, 613}
)

// throttled reports whether code is one of Meta's rate limits.
func throttled(code int) bool {
	return slices.Contains(throttleCodes, code) || (code >= 80000 && code <= 80014)
}

// permissionDenied reports whether code says a permission is missing.
func permissionDenied(code int) bool { return code == 10 || (code >= 200 && code <= 299) }

// connectLink is how a Meta account is connected again.
const connectLink = `POST /admin/tenants/{tenant_id}/connect-links with {"provider": "meta"}, and send the link to the account's owner`

const (
	hintExpiredToken = "Meta expired or revoked this account's token (OAuthException 190): re-connect the Meta account: " + connectLink
	hintPermission   = "Meta refused a permission: the token lacks ads_read (reads) or ads_management (changes), or the person who connected it " +
		"has no role on this ad account that allows the call. Re-connect the Meta account as a person with access to the ad account, " +
		"granting both permissions: " + connectLink + `. If Meta names the application ("Application does not have permission"), ` +
		"the operator's Meta app needs the permission approved in App Review"
	hintThrottled = "Meta throttles per ad account and per app, and blocks a throttled account for one to five minutes: " +
		"wait retry_after seconds (Meta's estimated_time_to_regain_access, when it sends one) before retrying"
)

// classify is the upstream Classify of the Graph API. Meta sends every
// error with HTTP 400, so the error code decides: an expired or revoked
// token is the credential failure it is (the token is renewed once, as after
// a 401, and what is left is REAUTH_REQUIRED naming the connect link), a
// throttle is RATE_LIMITED (not sent again at once: Meta blocks the account
// for minutes), and a missing permission is REAUTH_REQUIRED too, since only
// connecting the account again with the permission, or as a person with a
// role on the ad account, changes it.
//
// A missing permission is not FORBIDDEN: that code is gtmgate's own refusal
// of a call before it ran, which the error ledger does not replay and the
// audit log records as denied; this call ran, and replaying it once the
// account is re-connected is what the operator wants.
func classify(resp *upstream.Response, f upstream.Failure) upstream.Failure {
	var body graphErrorBody
	if json.Unmarshal(resp.Body, &body) != nil {
		return f
	}
	switch code := body.Error.Code; {
	case slices.Contains(expiredTokenCodes, code):
		f.Code, f.Hint, f.Refresh, f.Retry = gtmgate.EReauthRequired, hintExpiredToken, true, false
	case throttled(code):
		f.Code, f.Hint, f.Refresh, f.Retry = gtmgate.ERateLimited, hintThrottled, false, false
		f.RetryAfter = max(f.RetryAfter, regainAccess(resp))
	case permissionDenied(code):
		f.Code, f.Hint, f.Refresh, f.Retry = gtmgate.EReauthRequired, hintPermission, false, false
	}
	return f
}

// regainAccess is how long Meta says a throttled caller stays blocked: the
// longest estimated_time_to_regain_access (minutes) of the
// X-Business-Use-Case-Usage header, which holds, per business object, each
// use case's usage; or the X-Ad-Account-Usage header's reset_time_duration
// (seconds). Both per Meta's Graph API rate-limiting reference
// (developers.facebook.com/docs/graph-api/overview/rate-limiting, read
// 2026-11). 0 when Meta sent neither or they do not parse.
func regainAccess(resp *upstream.Response) time.Duration {
	var wait time.Duration
	var buc map[string][]struct {
		Regain float64 `json:"estimated_time_to_regain_access"`
	}
	if json.Unmarshal([]byte(resp.Header.Get("X-Business-Use-Case-Usage")), &buc) == nil {
		for _, uses := range buc {
			for _, u := range uses {
				if u.Regain > 0 && u.Regain < 24*60 {
					wait = max(wait, time.Duration(u.Regain*float64(time.Minute)))
				}
			}
		}
	}
	var acct struct {
		Reset float64 `json:"reset_time_duration"`
	}
	if json.Unmarshal([]byte(resp.Header.Get("X-Ad-Account-Usage")), &acct) == nil && acct.Reset > 0 && acct.Reset < 24*3600 {
		wait = max(wait, time.Duration(acct.Reset*float64(time.Second)))
	}
	return wait
}
