package googleads

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
)

// SandboxToken is the OAuth access token the sandbox accepts.
const SandboxToken = "sandbox-google-ads-token"

// Sandbox is an in-process fake of the Google Ads REST API. It serves
//
//	POST /{version}/customers/{id}/googleAds:search          GAQL: SELECT … FROM … WHERE … ORDER BY … LIMIT
//	POST /{version}/customers/{id}/campaigns:mutate          update status or name (updateMask)
//	POST /{version}/customers/{id}/campaignBudgets:mutate    update amountMicros (multiples of 10,000)
//	POST /{version}/customers/{id}/campaignCriteria:mutate   create negative keywords
//
// for every version the catalogue (package apiversion) has not seen sunset on
// the sandbox's day; a sunset version gets Google's plain 404 page, as the
// real API answers a version it has removed. It requires "Authorization:
// Bearer sandbox-google-ads-token", and a developer-token header until the
// day Google stopped requiring one (see developerTokenSunset). It models
// account access: the sandbox user reaches two accounts directly, and a third
// only through the manager account 555-000-1111, named in login-customer-id.
// Every request and answer is checked against the protos of the default
// version (Spec, apispec.json): a request they do not allow is refused with
// a GoogleAdsFailure, and GAQL fields, their JSON types and enum constants
// come from the same facts. It answers with Google's error bodies
// (GoogleAdsFailure details with the request's version in their @type),
// pages results by PageSize rows with base64 page tokens, keeps mutations in
// memory and applies none when validateOnly is set. GAQL support: resources
// customer, campaign, campaign_budget, ad_group, keyword_view,
// ad_group_criterion, campaign_criterion and geo_target_constant;
// segments.date; conditions =, !=, <, <=, >, >=, IN, NOT IN, LIKE, NOT LIKE,
// IS [NOT] NULL, DURING, BETWEEN joined by AND.
//
// Tests reach it as sb.Handler.(*googleads.Sandbox) to inject faults
// (FailNext) and count requests (Requests).
type Sandbox struct {
	// Spec checks every request and answer against the protos of the
	// default API version (apispec.json): unknown or mistyped body fields,
	// bad enum values and a malformed login-customer-id are refused with a
	// GoogleAdsFailure, as Google refuses them.
	Spec *apispec.Enforcer
	// PageSize is the number of rows per search page (Google's is 10,000).
	PageSize int

	mu        sync.Mutex
	now       func() time.Time
	customers map[string]*sbCustomer
	// direct are the customers the sandbox user is a user of; others are
	// reached only through a manager among them.
	direct   map[string]bool
	failures []sbFault
	requests int
}

// NewSandbox returns the Google Ads sandbox seeded with the accounts of
// Northwind Analytics, a fictional B2B SaaS advertiser.
func NewSandbox() gtmgate.ProviderSandbox {
	s := newSandbox(time.Now)
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "1234567890", Label: "Northwind Analytics (US, USD)"},
		{ID: "9876543210", Label: "Northwind Analytics (EMEA, EUR)"},
		{ID: "4440002222", Label: "Northwind Analytics (APAC, AUD), through manager 555-000-1111", LoginCustomerID: "555-000-1111"},
	}}
}

func newSandbox(now func() time.Time) *Sandbox {
	s := &Sandbox{PageSize: 10000, now: now, customers: map[string]*sbCustomer{},
		direct: map[string]bool{"1234567890": true, "9876543210": true, "5550001111": true}}
	s.Spec = apispec.Enforce(adsSpec(), http.HandlerFunc(s.serveAPI), refuse)
	s.customers["1234567890"] = seedCustomer("1234567890", "Northwind Analytics US", "USD", "America/New_York", 1.0, 21)
	s.customers["9876543210"] = seedCustomer("9876543210", "Northwind Analytics EMEA", "EUR", "Europe/Berlin", 0.45, 22)
	s.customers["5550001111"] = &sbCustomer{ID: "5550001111", Name: "Northwind Holdings (manager)", Currency: "USD", TimeZone: "America/New_York", Manager: true}
	apac := seedCustomer("4440002222", "Northwind Analytics APAC", "AUD", "Australia/Sydney", 0.3, 44)
	apac.ManagedBy = "5550001111"
	s.customers["4440002222"] = apac
	return s
}

// FailNext makes the next n requests fail with the given HTTP status and a
// Google error body (500 INTERNAL, 429 RESOURCE_EXHAUSTED, 400 INVALID_ARGUMENT…).
func (s *Sandbox) FailNext(status, n int) { s.failNext(sbFault{status: status}, n) }

// QuotaExhaustedNext makes the next n requests fail as Google rate-limits a
// developer token: 429 RESOURCE_EXHAUSTED with a quotaError whose
// quotaErrorDetails carry retryDelay, and the same delay as a
// google.rpc.RetryInfo.
func (s *Sandbox) QuotaExhaustedNext(retryDelay time.Duration, n int) {
	s.failNext(sbFault{status: http.StatusTooManyRequests, retryDelay: retryDelay}, n)
}

// DenyNext makes the next n requests fail with an authorizationError code
// (403 PERMISSION_DENIED) and the message Google documents for it, such as
// DEVELOPER_TOKEN_NOT_APPROVED or CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION.
func (s *Sandbox) DenyNext(code string, n int) {
	s.failNext(sbFault{status: http.StatusForbidden, denied: code}, n)
}

func (s *Sandbox) failNext(f sbFault, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.failures = append(s.failures, f)
	}
}

// Requests returns how many requests the sandbox has received.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// ServeHTTP answers as Google's front end does first: a version Google no
// longer serves gets its 404 page, a request without valid credentials 401;
// then the spec's checks (Spec) run before the API itself (serveAPI).
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	now := s.now()
	s.mu.Unlock()
	version, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if !servedVersion(version, now) {
		writeNotFoundPage(w, r.URL.Path)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+SandboxToken {
		sbReply{w: w, version: version}.googleError(http.StatusUnauthorized, "UNAUTHENTICATED",
			"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
			"authenticationError", "OAUTH_TOKEN_INVALID", "Oauth token is invalid.")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/"+version+"/customers:listAccessibleCustomers" {
		s.serveAccessibleCustomers(w)
		return
	}
	if isCustomerClientSearch(r) {
		s.serveAPI(w, r)
		return
	}
	s.Spec.ServeHTTP(&sbWriter{ResponseWriter: w, path: r.URL.Path, version: version}, r)
}

// serveAPI routes a request the spec allows to search or mutate after
// injected faults, the developer token and the caller's access to the customer.
func (s *Sandbox) serveAPI(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	version, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	rep := sbReply{w: w, version: version}
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		rep.fault(f)
		return
	}
	if r.Header.Get("developer-token") == "" && s.now().Before(developerTokenSunset) {
		rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Request contains an invalid argument.",
			"requestError", "DEVELOPER_TOKEN_PARAMETER_MISSING", "developer-token parameter is missing.")
		return
	}
	rest, ok := strings.CutPrefix(rest, "customers/")
	id, method, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || r.Method != http.MethodPost {
		writeNotFoundPage(w, r.URL.Path)
		return
	}
	if f := s.authorize(id, r.Header.Get("login-customer-id")); f != nil {
		rep.googleError(http.StatusForbidden, "PERMISSION_DENIED", "The caller does not have permission", f.kind, f.code, f.msg)
		return
	}
	c := s.customers[id]
	var body map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&body); err != nil {
		rep.googleError(http.StatusBadRequest, "INVALID_ARGUMENT", "Invalid JSON payload received. "+err.Error(), "", "", "")
		return
	}
	switch method {
	case "googleAds:search":
		s.search(rep, c, body)
	case "campaigns:mutate", "campaignBudgets:mutate", "campaignCriteria:mutate":
		s.mutate(rep, c, strings.TrimSuffix(method, ":mutate"), body)
	default:
		writeNotFoundPage(w, r.URL.Path)
	}
}
