package refresh

import (
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// seedHint tells the operator how to repair an account that cannot refresh.
const seedHint = "obtain a new refresh token for this account from the provider (sign in again) and send it with POST /admin/seed-oauth"

// failure is a failed token endpoint request. Its message is safe to store
// as last_error and to show: secrets are redacted from it.
type failure struct {
	// reauth is set when only a new grant can fix it (invalid_grant,
	// invalid_client, unauthorized_client).
	reauth  bool
	timeout bool
	// oauthCode is the RFC 6749 error code, when the endpoint sent one.
	oauthCode string
	status    int
	message   string
	// body is a redacted excerpt of the endpoint's response.
	body string
}

func (f *failure) Error() string { return f.message }

// reauthError is the REAUTH_REQUIRED of an account whose refresh credentials
// were refused.
func reauthError(a account, lastError string) error {
	msg := fmt.Sprintf("the %s account %q of tenant %q needs re-authorisation: its OAuth refresh token or client credentials were refused",
		a.provider, a.id, a.tenant)
	if lastError != "" {
		msg += " (" + lastError + ")"
	}
	return &gtmgate.Error{Code: gtmgate.EReauthRequired, Message: msg, Hint: seedHint}
}

// notConfiguredError is the REAUTH_REQUIRED of an account without a seeding record.
func notConfiguredError(a account) error {
	return &gtmgate.Error{Code: gtmgate.EReauthRequired,
		Message: fmt.Sprintf("the %s account %q of tenant %q has no OAuth refresh credentials", a.provider, a.id, a.tenant),
		Hint:    "seed them with POST /admin/seed-oauth, or store a token with PUT /admin/tokens/" + a.tenant + "/" + a.provider + "/" + a.id}
}

// transientError is the error of a refresh that may succeed later.
func transientError(a account, f *failure) error {
	code := gtmgate.EUpstream
	if f.timeout {
		code = gtmgate.EUpstreamTimeout
	}
	return &gtmgate.Error{Code: code,
		Message: fmt.Sprintf("the %s token of account %q of tenant %q could not be refreshed: %s", a.provider, a.id, a.tenant, f.message),
		Hint:    "retry later; the gateway keeps retrying the refresh in the background",
		Detail:  gtmgate.UpstreamDetail{Provider: a.provider, Status: f.status, Body: f.body}}
}

// busyError is returned when another replica's refresh did not finish in time.
func busyError(a account, waited time.Duration) error {
	return &gtmgate.Error{Code: gtmgate.EUpstreamTimeout, Message: fmt.Sprintf(
		"another gateway replica is refreshing the %s token of account %q of tenant %q and has not finished within %s",
		a.provider, a.id, a.tenant, waited), Hint: "retry the call shortly"}
}
