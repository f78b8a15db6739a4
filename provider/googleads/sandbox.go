package googleads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// SandboxToken is the OAuth access token the sandbox accepts.
const SandboxToken = "sandbox-google-ads-token"

// Sandbox is an in-process fake of the Google Ads REST API v21. It serves
//
//	POST /v21/customers/{id}/googleAds:search          GAQL: SELECT … FROM … WHERE … ORDER BY … LIMIT
//	POST /v21/customers/{id}/campaigns:mutate          update status (updateMask "status")
//	POST /v21/customers/{id}/campaignBudgets:mutate    update amountMicros (multiples of 10,000)
//	POST /v21/customers/{id}/campaignCriteria:mutate   create negative keywords
//
// It requires "Authorization: Bearer sandbox-google-ads-token" and a non-empty
// developer-token header, answers with Google's error bodies (GoogleAdsFailure
// details), pages results by PageSize rows with base64 page tokens, and keeps
// mutations in memory. GAQL support: resources customer, campaign,
// campaign_budget, ad_group, keyword_view, ad_group_criterion and
// campaign_criterion; segments.date; conditions =, !=, <, <=, >, >=, IN,
// NOT IN, LIKE, NOT LIKE, IS [NOT] NULL, DURING, BETWEEN joined by AND.
//
// Tests reach it as sb.Handler.(*googleads.Sandbox) to inject faults
// (FailNext) and count requests (Requests).
type Sandbox struct {
	// PageSize is the number of rows per search page (Google's is 10,000).
	PageSize int

	mu        sync.Mutex
	now       func() time.Time
	customers map[string]*sbCustomer
	failures  []int
	requests  int
}

// NewSandbox returns the Google Ads sandbox seeded with two accounts of
// Northwind Analytics, a fictional B2B SaaS advertiser.
func NewSandbox() gtmgate.ProviderSandbox {
	s := newSandbox(time.Now)
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "1234567890", Label: "Northwind Analytics (US, USD)"},
		{ID: "9876543210", Label: "Northwind Analytics (EMEA, EUR)"},
	}}
}

func newSandbox(now func() time.Time) *Sandbox {
	s := &Sandbox{PageSize: 10000, now: now, customers: map[string]*sbCustomer{}}
	s.customers["1234567890"] = seedCustomer("1234567890", "Northwind Analytics US", "USD", "America/New_York", 1.0, 21)
	s.customers["9876543210"] = seedCustomer("9876543210", "Northwind Analytics EMEA", "EUR", "Europe/Berlin", 0.45, 22)
	return s
}

// FailNext makes the next n requests fail with the given HTTP status and a
// Google error body (500 INTERNAL, 429 RESOURCE_EXHAUSTED, 400 INVALID_ARGUMENT…).
func (s *Sandbox) FailNext(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.failures = append(s.failures, status)
	}
}

// Requests returns how many requests the sandbox has received.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// ServeHTTP routes a request to search or mutate after checking credentials.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if len(s.failures) > 0 {
		status := s.failures[0]
		s.failures = s.failures[1:]
		writeFault(w, status)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+SandboxToken {
		writeGoogleError(w, http.StatusUnauthorized, "UNAUTHENTICATED",
			"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
			"authenticationError", "OAUTH_TOKEN_INVALID", "Oauth token is invalid.")
		return
	}
	if r.Header.Get("developer-token") == "" {
		writeGoogleError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "The caller does not have permission",
			"authenticationError", "DEVELOPER_TOKEN_PARAMETER_MISSING", "The developer token parameter is missing in the header.")
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+APIVersion+"/customers/")
	id, method, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || r.Method != http.MethodPost {
		writeGoogleError(w, http.StatusNotFound, "NOT_FOUND", "Method not found.", "", "", "")
		return
	}
	c := s.customers[id]
	if c == nil {
		writeGoogleError(w, http.StatusForbidden, "PERMISSION_DENIED", "The caller does not have permission",
			"authorizationError", "USER_PERMISSION_DENIED",
			fmt.Sprintf("User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. customer %s", id))
		return
	}
	var body map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&body); err != nil {
		writeGoogleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "Invalid JSON payload received.", "requestError", "INVALID_INPUT", err.Error())
		return
	}
	switch method {
	case "googleAds:search":
		s.search(w, c, body)
	case "campaigns:mutate", "campaignBudgets:mutate", "campaignCriteria:mutate":
		s.mutate(w, c, strings.TrimSuffix(method, ":mutate"), body)
	default:
		writeGoogleError(w, http.StatusNotFound, "NOT_FOUND", "Method not found.", "", "", "")
	}
}

// writeFault answers an injected failure with the error Google sends for that status.
func writeFault(w http.ResponseWriter, status int) {
	switch {
	case status == http.StatusTooManyRequests:
		writeGoogleError(w, status, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).",
			"quotaError", "RESOURCE_EXHAUSTED", "Too many requests. Retry in 30 seconds.")
	case status >= 500:
		writeGoogleError(w, status, "INTERNAL", "Internal error encountered.", "internalError", "INTERNAL_ERROR",
			"An internal error has occurred.")
	case status == http.StatusUnauthorized:
		writeGoogleError(w, status, "UNAUTHENTICATED", "Request had invalid authentication credentials.",
			"authenticationError", "OAUTH_TOKEN_INVALID", "Oauth token is invalid.")
	default:
		writeGoogleError(w, status, "INVALID_ARGUMENT", "Request contains an invalid argument.",
			"requestError", "INVALID_INPUT", "Injected failure.")
	}
}

// writeGoogleError writes Google's error envelope; kind/code/detail, when set,
// become one GoogleAdsFailure error.
func writeGoogleError(w http.ResponseWriter, status int, statusText, message, kind, code, detail string) {
	e := map[string]any{"code": status, "message": message, "status": statusText}
	if kind != "" {
		e["details"] = []any{map[string]any{
			"@type":     "type.googleapis.com/google.ads.googleads." + APIVersion + ".errors.GoogleAdsFailure",
			"errors":    []any{map[string]any{"errorCode": map[string]string{kind: code}, "message": detail}},
			"requestId": "sbx-" + strings.ToLower(code),
		}}
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
