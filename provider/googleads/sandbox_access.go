package googleads

import (
	"regexp"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate/provider/apiversion"
)

// developerTokenSunset is the day Google stopped requiring the
// developer-token header ("Developer tokens were sunset on September 9,
// 2026 … optional and ignored by the API servers",
// https://developers.google.com/google-ads/api/docs/api-policy/developer-token).
// Before it a request without one was refused with
// requestError.DEVELOPER_TOKEN_PARAMETER_MISSING, HTTP 400.
var developerTokenSunset = time.Date(2026, 9, 9, 0, 0, 0, 0, time.UTC)

var versionNumber = regexp.MustCompile(`^v([0-9]+)$`)

// servedVersion reports whether Google serves API version v on day now: a
// catalogued version until its sunset, and an uncatalogued one only when it
// is newer than every catalogued version (older ones were sunset before the
// catalogue began).
func servedVersion(v string, now time.Time) bool {
	p := apiversion.MustOf(Provider)
	if !p.Pattern.MatchString(v) {
		return false
	}
	if _, known := p.Lookup(v); known {
		return p.Live(v, now)
	}
	return major(v) > major(p.Newest())
}

func major(v string) int {
	m := versionNumber.FindStringSubmatch(v)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sbDenied is an authorization failure: Google's error kind, code and message.
type sbDenied struct{ kind, code, msg string }

// authorize decides, as Google does, whether the sandbox user may call
// customer id with login-customer-id login: without the header the user must
// be a user of the customer; with it, the user must be a user of the login
// customer, which must be the customer or its manager.
func (s *Sandbox) authorize(id, login string) *sbDenied {
	denied := &sbDenied{"authorizationError", "USER_PERMISSION_DENIED",
		"User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid"}
	c := s.customers[id]
	switch {
	case c == nil:
		return denied
	case login == "":
		if !s.direct[id] {
			return denied
		}
	case !s.direct[login] || s.customers[login] == nil:
		return denied
	case login != id && c.ManagedBy != login:
		return &sbDenied{"authorizationError", "INVALID_LOGIN_CUSTOMER_ID_SERVING_CUSTOMER_ID_COMBINATION",
			"The login customer specified does not have access to the account specified, so the request is invalid."}
	}
	return nil
}
