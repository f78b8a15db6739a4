package searchconsole

import (
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// SandboxToken is the access token the Search Console sandbox accepts.
const SandboxToken = "sandbox-search-console-token"

// sandboxDays is how many days of data each sandbox site holds.
const sandboxDays = 90

// Sandbox is an in-process Search Console API serving
// POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query for two
// properties of the fictional B2B SaaS company Ledgerly:
// "sc-domain:ledgerly.example" and "https://www.ledgerly.example/". Each holds
// 90 days (ending two days before the sandbox was created) of clicks,
// impressions and positions by query, page, country, device and search
// appearance, generated deterministically.
//
// It requires "Authorization: Bearer sandbox-search-console-token" and answers
// with Google's error body: 401 UNAUTHENTICATED, 400 INVALID_ARGUMENT for bad
// dates, dimensions or regular expressions, 403 PERMISSION_DENIED for sites it
// does not hold. Tests inject faults through the embedded Guard:
// FailNext(status, n) and Requests. NewSandbox's Handler is a *Sandbox.
type Sandbox struct {
	googleapi.Guard
	handler http.Handler
	sites   map[string][]fact
}

// NewSandbox returns the Search Console sandbox as a ProviderSandbox.
func NewSandbox() gtmgate.ProviderSandbox {
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: NewSandboxAt(time.Now()), Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "sc-domain:ledgerly.example", Label: "ledgerly.example (domain property)"},
		{ID: "https://www.ledgerly.example/", Label: "www.ledgerly.example (URL prefix)"},
	}}
}

// NewSandboxAt returns a sandbox whose data end two days before now (UTC).
func NewSandboxAt(now time.Time) *Sandbox {
	y, m, d := now.UTC().Date()
	last := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -2)
	s := &Sandbox{Guard: googleapi.Guard{Token: SandboxToken}, sites: map[string][]fact{
		"sc-domain:ledgerly.example":    generate(1, "https://www.ledgerly.example", last, sandboxDays, 1),
		"https://www.ledgerly.example/": generate(2, "https://www.ledgerly.example", last, sandboxDays, .93),
	}}
	mux := googleapi.NewMux()
	mux.HandleFunc("POST /webmasters/v3/sites/{site}/searchAnalytics/query", s.serveQuery)
	s.handler = s.Wrap(mux)
	return s
}

// ServeHTTP serves the Search Console API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Sandbox) serveQuery(w http.ResponseWriter, r *http.Request) {
	site := r.PathValue("site")
	facts, ok := s.sites[site]
	if !ok {
		googleapi.WriteError(w, http.StatusForbidden, "User does not have sufficient permission for site '"+site+
			"'. See also: https://support.google.com/webmasters/answer/2451999.")
		return
	}
	var req queryRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	resp, err := answer(facts, &req)
	if err != nil {
		googleapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}
