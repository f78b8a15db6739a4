package metaads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// graphErrors are the messages Meta sends with the Graph error codes
// ErrorNext injects: the names of Meta's "Handling Errors" table
// (developers.facebook.com/docs/graph-api/guides/error-handling) and the
// messages of its rate-limiting pages (…/graph-api/overview/rate-limiting,
// …/marketing-api/overview/rate-limiting), read 2026-11.
var graphErrors = map[int]string{
	190:   "Error validating access token: Session has expired on Thursday, 26-Nov-26 09:00:00 PST. The current time is Friday, 27-Nov-26 03:00:00 PST.",
	102:   "(#102) Session key invalid or no longer valid",
	4:     "(#4) Application request limit reached",
	17:    "(#17) User request limit reached",
	32:    "(#32) Page request limit reached",
	341:   "(#341) Application limit reached",
	613:   "(#613) Calls to this api have exceeded the rate limit.",
	80004: "(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#ads-management.",
	10:    "(#10) Application does not have permission for this action",
	200:   "(#200) Requires ads_management permission to manage the object",
	294:   "(#294) Managing advertisements requires an access token with the extended permission for ads_management",
}

// graphErrorMessage is Meta's message for code: graphErrors', a Business
// Use Case throttle's, or a permission error's.
func graphErrorMessage(code int) string {
	switch m, ok := graphErrors[code]; {
	case ok:
		return m
	case code >= 80000 && code <= 80014:
		return fmt.Sprintf("(#%d) There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.", code)
	case code >= 200 && code <= 299:
		return fmt.Sprintf("(#%d) Permissions error", code)
	}
	return fmt.Sprintf("(#%d) An unknown error occurred", code)
}

// graphErrorSubcode is the error_subcode Meta sends with code: 463, an
// expired session, with 190.
func graphErrorSubcode(code int) int {
	if code == 190 {
		return 463
	}
	return 0
}

// throttleMinutes is how long the sandbox says a throttled ad account stays
// blocked: Meta's Marketing API rate-limiting page blocks one for 60 seconds
// in the standard tier (300 in the development tier).
const throttleMinutes = 1

// writeBusinessUsage sets the X-Business-Use-Case-Usage header Meta sends
// with a Business Use Case throttle (codes 80000-80014): per business object
// (the ad account), each use case's usage in percent and
// estimated_time_to_regain_access in minutes, per Meta's Graph API
// rate-limiting reference (developers.facebook.com/docs/graph-api/overview/rate-limiting,
// "Business Use Case Rate Limits", read 2026-11).
func writeBusinessUsage(w http.ResponseWriter, r *http.Request, code int) {
	account := "0"
	for _, seg := range strings.Split(r.URL.Path, "/") {
		if id, ok := strings.CutPrefix(seg, "act_"); ok {
			account = id
		}
	}
	kind := "ads_management"
	if code == 80000 {
		kind = "ads_insights"
	}
	b, _ := json.Marshal(map[string][]map[string]any{account: {{
		"type": kind, "call_count": 100, "total_cputime": 12, "total_time": 15,
		"estimated_time_to_regain_access": throttleMinutes, "ads_api_access_tier": "standard_access",
	}}})
	w.Header().Set("X-Business-Use-Case-Usage", string(b))
}
