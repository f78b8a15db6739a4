package linkedinads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
)

// SandboxToken is the access token the sandbox accepts.
const SandboxToken = "sandbox-linkedin-ads-token"

// Sandbox is an in-process fake of the LinkedIn Marketing API. It serves
//
//	GET  /rest/adAccounts/{id}
//	GET  /rest/adAccounts/{id}/adCampaigns?q=search&search=(status:(values:List(…)))&pageSize&pageToken
//	GET  /rest/adAccounts/{id}/adCampaigns/{campaignId}
//	POST /rest/adAccounts/{id}/adCampaigns/{campaignId}   X-RestLi-Method: PARTIAL_UPDATE, {"patch": {"$set": {…}}}
//	GET  /rest/adAnalytics?q=analytics&pivot&timeGranularity&dateRange=(start:(…),end:(…))&accounts=List(…)&campaigns=List(…)&fields
//
// It requires "Authorization: Bearer sandbox-linkedin-ads-token" (or a token
// its authorization server issued, sandbox_authorize.go), a
// LinkedIn-Version header naming a version LinkedIn serves on the sandbox's
// day (400 VERSION_MISSING without one, 426 NONEXISTENT_VERSION for one past
// its sunset or never released, as LinkedIn answers) and
// X-Restli-Protocol-Version: 2.0.0, decodes Rest.li 2.0 query values strictly
// (an escaped parenthesis is text, not structure), answers with LinkedIn's
// error body ({"status", "serviceErrorCode", "code", "message"}) and keeps
// changes in memory. Behind those checks, Spec checks every request and
// answer against the facts transcribed from LinkedIn's reference pages
// (apispec.json): a query parameter the operation does not have, a simple
// value outside its enum or a body field of the wrong type is refused with
// LinkedIn's 400 PARAM_INVALID.
//
// Tests reach it as sb.Handler.(*linkedinads.Sandbox): FailNext injects
// failures, Requests counts calls. Injected failures answer requests the
// spec's checks let through, so those are checked too.
type Sandbox struct {
	// Spec checks requests and answers against the reference pages' facts.
	Spec *apispec.Enforcer

	mu       sync.Mutex
	now      func() time.Time
	accounts map[string]*sbAccount
	faults   []int
	requests int
	// auth is the authorization server (sandbox_authorize.go), whose
	// tokens the API accepts too.
	auth *linkedinAuth
}

// NewSandbox returns the LinkedIn sandbox seeded with two ad accounts of
// Northwind Analytics, a fictional B2B SaaS advertiser.
func NewSandbox() gtmgate.ProviderSandbox {
	s := &Sandbox{now: time.Now, accounts: map[string]*sbAccount{}, auth: newLinkedInAuth()}
	for _, a := range []*sbAccount{seedAccount("508123456", "Northwind Analytics", "USD", 1), seedAccount("508987654", "Northwind Analytics EU", "EUR", 0.5)} {
		s.accounts[a.ID] = a
	}
	s.Spec = enforce(http.HandlerFunc(s.serve))
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "508123456", Label: "Northwind Analytics (USD)"}, {ID: "508987654", Label: "Northwind Analytics EU (EUR)"}}}
}

// FailNext makes the next n requests fail with the HTTP status and LinkedIn's error body for it.
func (s *Sandbox) FailNext(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.faults = append(s.faults, status)
	}
}

// Requests returns how many requests the sandbox has received.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// ServeHTTP checks the token and the version headers as LinkedIn does
// first, then hands the request to the spec's checks and the routes behind
// them.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	if s.serveOAuth(w, r) {
		return
	}
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); !ok || !s.accepts(token) {
		writeError(w, 401, "INVALID_ACCESS_TOKEN", "Invalid access token")
		return
	}
	switch version := r.Header.Get("LinkedIn-Version"); {
	case version == "":
		writeError(w, 400, "VERSION_MISSING", "A version must be present. Please specify a version by adding the LinkedIn-Version header.")
		return
	case !s.active(version):
		writeError(w, 426, "NONEXISTENT_VERSION", fmt.Sprintf("Requested version %s is not active", dated(version)))
		return
	}
	if r.Header.Get("X-Restli-Protocol-Version") != "2.0.0" {
		writeError(w, 400, "ILLEGAL_ARGUMENT", "Rest.li protocol version 2.0.0 is required (X-Restli-Protocol-Version)")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/rest/adAccounts" && r.URL.Query().Get("q") == "search" {
		// Discovery for connect links; outside the spec's transcribed operations.
		s.serveAdAccountSearch(w)
		return
	}
	s.Spec.ServeHTTP(w, r)
}

// serve answers a request the spec's checks let through: an injected
// failure, else the route.
func (s *Sandbox) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) > 0 {
		f := s.faults[0]
		s.faults = s.faults[1:]
		codes := map[int]string{401: "INVALID_ACCESS_TOKEN", 403: "ACCESS_DENIED", 429: "TOO_MANY_REQUESTS", 400: "ILLEGAL_ARGUMENT"}
		code := codes[f]
		if code == "" {
			code = "INTERNAL_SERVER_ERROR"
		}
		writeError(w, f, code, fmt.Sprintf("Injected failure: %s", strings.ToLower(strings.ReplaceAll(code, "_", " "))))
		return
	}
	params := rawParams(r.URL.RawQuery)
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/rest/"), "/")
	switch {
	case len(parts) == 1 && parts[0] == "adAnalytics" && r.Method == http.MethodGet:
		s.analytics(w, params)
	case len(parts) >= 2 && parts[0] == "adAccounts":
		a := s.accounts[parts[1]]
		if a == nil {
			writeError(w, 403, "ACCESS_DENIED", fmt.Sprintf("Not enough permissions to access: adAccounts.GET.%s", parts[1]))
			return
		}
		s.account(w, r, a, parts[2:], params)
	default:
		writeError(w, 404, "NOT_FOUND", "No virtual resource found")
	}
}

// active reports whether LinkedIn serves version on the sandbox's day: a
// catalogued version before its sunset, or one newer than the catalogue (a
// release may not know the latest month). A version inside the catalogue's
// span that it does not list was never released (LinkedIn skips December),
// and one older than its span was sunset long ago. A patch version (202508.02)
// stands or falls with its month.
func (s *Sandbox) active(version string) bool {
	cat := catalogue()
	if !cat.Pattern.MatchString(version) {
		return false
	}
	month, _, patch := strings.Cut(version, ".")
	if _, known := cat.Lookup(version); !known && patch {
		version = month
	}
	if _, known := cat.Lookup(version); known {
		return cat.Live(version, s.now())
	}
	return month > cat.Newest()
}

// dated spells a version as LinkedIn's errors do: 202410 is 20241001.
func dated(version string) string {
	if len(version) == 6 {
		return version + "01"
	}
	return version
}

func (s *Sandbox) account(w http.ResponseWriter, r *http.Request, a *sbAccount, rest []string, params map[string]string) {
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		writeJSON(w, 200, map[string]any{"id": a.idNum(), "name": a.Name, "currency": a.Currency, "status": "ACTIVE",
			"type": "BUSINESS", "reference": "urn:li:organization:" + a.ID[:5], "test": false})
	case len(rest) == 1 && rest[0] == "adCampaigns" && r.Method == http.MethodGet:
		s.searchCampaigns(w, a, params)
	case len(rest) == 2 && rest[0] == "adCampaigns":
		c := a.campaign(rest[1])
		if c == nil {
			writeError(w, 404, "NOT_FOUND", fmt.Sprintf("Campaign %s not found in account %s", rest[1], a.ID))
			return
		}
		if r.Method == http.MethodGet {
			writeJSON(w, 200, a.campaignJSON(c))
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("X-RestLi-Method") != "PARTIAL_UPDATE" {
			writeError(w, 400, "ILLEGAL_ARGUMENT", "Updates need POST with X-RestLi-Method: PARTIAL_UPDATE")
			return
		}
		s.patchCampaign(w, r, c)
	default:
		writeError(w, 404, "NOT_FOUND", "No virtual resource found")
	}
}

// writeError writes LinkedIn's error body.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	service := map[string]int{"INVALID_ACCESS_TOKEN": 65600, "ACCESS_DENIED": 100, "TOO_MANY_REQUESTS": 101}[code]
	body := map[string]any{"status": status, "code": code, "message": msg}
	if service != 0 {
		body["serviceErrorCode"] = service
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RestLi-Protocol-Version", "2.0.0")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
