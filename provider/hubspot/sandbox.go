package hubspot

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// SandboxToken is the access token the sandbox accepts.
const SandboxToken = "sandbox-hubspot-token"

// sandboxAccounts is the demo portal the sandbox holds data for.
var sandboxAccounts = []gtmgate.Account{{ID: "portal-24681357", Label: "Northwind Cloud (HubSpot demo portal)"}}

// Sandbox is an in-process fake of HubSpot's CRM API: the object endpoints
// (list, get, create, update, search with filterGroups, sorts and "after"
// paging) for contacts, companies, deals, notes and tasks; associations;
// deal and ticket pipelines; property definitions. It serves them at the
// legacy paths (/crm/v3/…, associations at /crm/v4/…) and at every dated
// version in the catalogue (/crm/objects/2026-03/…); other dated versions
// get 404. It is seeded with the
// CRM of a fictional B2B SaaS sales team, keeps mutations in memory for its
// lifetime and is safe for concurrent use.
//
// Requests need "Authorization: Bearer " + SandboxToken, or a token its
// authorization server issued (sandbox_authorize.go); otherwise it answers
// 401 with HubSpot's INVALID_AUTHENTICATION body. Bad input gets 400 with
// category VALIDATION_ERROR, unknown record ids 404 with OBJECT_NOT_FOUND.
// Authenticated requests at 2026-03 and at the legacy paths go through Spec,
// which checks them, and the answers, against HubSpot's published OpenAPI
// documents (apispec.json): a request they do not allow gets 400
// VALIDATION_ERROR, a path they do not list 404.
//
// Faults are injected deterministically, after authentication, in two ways:
//   - Fail(status, times) arms the next `times` requests (times <= 0: every
//     request until ClearFaults) to answer status. This is how tests reach
//     the sandbox behind an adapter, which forwards no custom headers.
//   - The request header X-Sandbox-Fault: 429 or 500 fails that request;
//     "429-once" or "500-once" fails only the first request with that header
//     value, method and path, so a retry succeeds.
//
// A 429 carries Retry-After: 1 and HubSpot's RATE_LIMITS body with a
// policyName; a 500 carries an INTERNAL_ERROR body.
type Sandbox struct {
	mu        sync.Mutex
	types     map[string]*sandboxType
	records   map[string]*recordSet
	assocs    map[assocKey][]assocEdge
	pipelines map[string][]hsPipeline
	nextID    map[string]int64
	faults    []armedFault
	onceSeen  map[string]bool
	requests  int
	now       func() time.Time
	mux       *http.ServeMux
	scopes    []string // granted to SandboxToken (GrantScopes); nil: sandboxScopes
	// auth is the authorization server (sandbox_authorize.go), whose
	// tokens the CRM accepts too; clientSecret is its app's secret.
	auth         *oauthsandbox.Server
	clientSecret string
	// Spec checks the traffic of the paths HubSpot's spec describes
	// (specChecked) against it.
	Spec *apispec.Enforcer
}

type armedFault struct {
	status int
	left   int // <= 0: until cleared
}

// NewSandbox returns the HubSpot sandbox as a gtmgate.ProviderSandbox; its
// Handler is a *Sandbox, reachable from tests for fault injection.
func NewSandbox() gtmgate.ProviderSandbox {
	s := NewSandboxHandler()
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken,
		Accounts: append([]gtmgate.Account(nil), sandboxAccounts...)}
}

// NewSandboxHandler returns a freshly seeded sandbox.
func NewSandboxHandler() *Sandbox {
	s := &Sandbox{
		types:     sandboxTypes(),
		records:   map[string]*recordSet{},
		assocs:    map[assocKey][]assocEdge{},
		pipelines: sandboxPipelines(),
		nextID:    map[string]int64{},
		onceSeen:  map[string]bool{},
		now:       time.Now,
	}
	s.clientSecret = oauthsandbox.NewSecret()
	s.auth = newAuthServer(s.clientSecret)
	for name, t := range s.types {
		s.records[name] = &recordSet{byID: map[string]*record{}}
		s.nextID[name] = t.idBase
	}
	s.seed()
	s.mux = http.NewServeMux()
	s.routes()
	s.Spec = apispec.Enforce(crmSpec(), http.HandlerFunc(s.serveAPI), s.refuse)
	return s
}

// Fail makes the next times requests answer with status (429 and 5xx carry
// HubSpot's bodies); times <= 0 keeps failing until ClearFaults.
func (s *Sandbox) Fail(status, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, armedFault{status: status, left: times})
}

// ClearFaults disarms every fault armed with Fail.
func (s *Sandbox) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Requests returns how many authenticated requests the sandbox has received,
// failed ones included; tests use it to count retries.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *Sandbox) routes() {
	s.mux.HandleFunc("GET /crm/v3/objects/{type}", s.handleList)
	s.mux.HandleFunc("POST /crm/v3/objects/{type}", s.handleCreate)
	s.mux.HandleFunc("POST /crm/v3/objects/{type}/search", s.handleSearch)
	s.mux.HandleFunc("GET /crm/v3/objects/{type}/{id}", s.handleGet)
	s.mux.HandleFunc("PATCH /crm/v3/objects/{type}/{id}", s.handleUpdate)
	s.mux.HandleFunc("GET /crm/v4/objects/{from}/{id}/associations/{to}", s.handleAssocList)
	s.mux.HandleFunc("PUT /crm/v4/objects/{from}/{id}/associations/default/{to}/{toId}", s.handleAssocCreate)
	s.mux.HandleFunc("GET /crm/v3/pipelines/{type}", s.handlePipelines)
	s.mux.HandleFunc("GET /crm/v3/properties/{type}", s.handleProperties)
	// The same endpoints at a date-based version: /crm/{area}/{version}/….
	dated := func(pattern string, h http.HandlerFunc) { s.mux.HandleFunc(pattern, s.datedVersion(h)) }
	dated("GET /crm/objects/{version}/{type}", s.handleList)
	dated("POST /crm/objects/{version}/{type}", s.handleCreate)
	dated("POST /crm/objects/{version}/{type}/search", s.handleSearch)
	dated("GET /crm/objects/{version}/{type}/{id}", s.handleGet)
	dated("PATCH /crm/objects/{version}/{type}/{id}", s.handleUpdate)
	dated("GET /crm/objects/{version}/{from}/{id}/associations/{to}", s.handleAssocList)
	dated("PUT /crm/objects/{version}/{from}/{id}/associations/default/{to}/{toId}", s.handleAssocCreate)
	dated("GET /crm/pipelines/{version}/{type}", s.handlePipelines)
	dated("GET /crm/properties/{version}/{type}", s.handleProperties)
}

func known(version string) bool {
	_, ok := catalogue().Lookup(version)
	return ok
}

// datedVersion serves h for the date-based versions in the catalogue and
// answers any other version with the sandbox's 404 for an unknown route, as
// HubSpot serves no such path.
func (s *Sandbox) datedVersion(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if v := r.PathValue("version"); v == legacyVersion || !known(v) {
			s.writeError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for "+r.Method+" "+r.URL.Path)
			return
		}
		h(w, r)
	}
}

// ServeHTTP serves HubSpot's OAuth token information (serveOAuth), else
// authenticates, checks the request against the spec where it describes the
// path, then serves it.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/oauth/") {
		s.serveOAuth(w, r)
		return
	}
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); !ok || !s.accepts(token) {
		s.writeError(w, http.StatusUnauthorized, "INVALID_AUTHENTICATION",
			"Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview")
		return
	}
	if specChecked(r.URL.Path) {
		s.Spec.ServeHTTP(w, r)
		return
	}
	s.serveAPI(w, r)
}

// serveAPI applies any injected fault, then routes.
func (s *Sandbox) serveAPI(w http.ResponseWriter, r *http.Request) {
	if status := s.fault(r); status != 0 {
		s.writeFault(w, status)
		return
	}
	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.writeError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for "+r.Method+" "+r.URL.Path)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// fault counts the request and returns the status of an injected fault, or 0.
func (s *Sandbox) fault(r *http.Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if h := r.Header.Get("X-Sandbox-Fault"); h != "" {
		code, once := strings.CutSuffix(h, "-once")
		status, err := strconv.Atoi(code)
		if err == nil && status >= 400 && status <= 599 {
			key := h + " " + r.Method + " " + r.URL.Path
			if !once || !s.onceSeen[key] {
				s.onceSeen[key] = true
				return status
			}
		}
	}
	if len(s.faults) == 0 {
		return 0
	}
	f := &s.faults[0]
	status := f.status
	if f.left > 0 {
		if f.left--; f.left == 0 {
			s.faults = s.faults[1:]
		}
	}
	return status
}

func (s *Sandbox) writeFault(w http.ResponseWriter, status int) {
	switch {
	case status == http.StatusTooManyRequests:
		w.Header().Set("Retry-After", "1")
		s.writeJSON(w, status, hsError{Status: "error", Message: "You have reached your ten_secondly_rolling limit.",
			ErrorType: "RATE_LIMIT", PolicyName: "TEN_SECONDLY_ROLLING", CorrelationID: s.correlationID(), Category: "RATE_LIMITS"})
	case status >= 500:
		s.writeError(w, status, "INTERNAL_ERROR", "An internal error occurred. Please try again later.")
	default:
		s.writeError(w, status, "VALIDATION_ERROR", "Injected sandbox fault.")
	}
}
