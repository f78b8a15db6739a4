package gtmgate

import (
	"errors"
	"net/url"
)

// UnconnectedAccount is the error_detail of the error refusing a call of
// an agent that acts for a person and may use none of the tenant's
// accounts of Provider: the person has connected no account of their own
// (and the tenant shares none the agent may use: FORBIDDEN), or the tenant
// has none at all (VALIDATION_ERROR). It is what an MCP
// client that takes URL elicitation is asked to fix, on the console's
// page ConnectPagePath, where the person connects their own.
type UnconnectedAccount struct {
	// Provider is the provider key the call needs ("gmail", "google_ads").
	Provider string `json:"provider"`
	// Person is the person ("p_…") the agent acts for.
	Person string `json:"person"`
}

// UnconnectedAccountOf returns the account err says its agent's person has
// yet to connect; ok is false for any other error.
func UnconnectedAccountOf(err error) (u UnconnectedAccount, ok bool) {
	var e *Error
	if !errors.As(err, &e) {
		return u, false
	}
	u, ok = e.Detail.(UnconnectedAccount)
	return u, ok
}

// ConnectPagePath is the console page where a signed-in person of tenantID
// connects their own account of provider (a provider key, or a connect
// family such as "google"). A held call's elicitation links to it; the
// link carries no authority of its own: the account connected is always
// the signed-in person's.
func ConnectPagePath(tenantID, provider string) string {
	return "/console/connect/" + url.PathEscape(tenantID) + "/" + url.PathEscape(provider)
}
