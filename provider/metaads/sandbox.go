package metaads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// SandboxToken is the access token the sandbox accepts.
const SandboxToken = "sandbox-meta-ads-token"

// Sandbox is an in-process fake of the Marketing API. It serves, for each
// {version} the catalogue has not seen expire,
//
//	GET  /{version}/act_{id}             fields=currency,name,timezone_name
//	GET  /{version}/act_{id}/insights    fields, level, date_preset | time_range, time_increment, breakdowns, filtering, limit, after
//	GET  /{version}/act_{id}/campaigns   fields, effective_status, limit, after
//	GET  /{version}/{campaign_id}        fields
//	POST /{version}/{campaign_id}        status, daily_budget, lifetime_budget (form or JSON)
//	GET  /{version}/me/permissions       the token's permissions (GrantScopes), outside the spec's checks
//	GET  /{version}/me/adaccounts        the seeded ad accounts, outside the spec's checks
//	GET  /{version}/dialog/oauth, GET /{version}/oauth/access_token   the login dialog and code exchange (sandbox_authorize.go)
//
// It accepts the token as "Authorization: Bearer sandbox-meta-ads-token" or
// access_token (or a token the login dialog's exchange issued), answers with
// Graph API error bodies ({"error": {message, type, code, fbtrace_id}}, with
// HTTP 400 as Meta sends them: 190 bad token, 100 bad parameter or a field
// the version does not have, 2635 an expired version, 17/80004 throttling)
// and keeps changes in memory. Behind the token and version checks, as Graph
// checks them first, Spec checks every request and answer against the facts of the
// v26.0 SDK (apispec.json): a parameter the operation does not have, a value
// outside its enum or of the wrong type is refused with Graph's #100. Insights
// fields and Campaign fields are checked against the same facts; a valid
// field the sandbox does not compute is left out of rows, as Meta leaves out
// one without data.
//
// Tests reach it as sb.Handler.(*metaads.Sandbox): FailNext injects HTTP
// failures (FailNextPost only on changes), ErrorNext any of the Graph error
// codes Meta documents (ThrottleNext its ad-account throttle), Requests
// counts calls. Injected failures answer requests the spec checks let
// through, so those are checked too.
type Sandbox struct {
	// Spec checks requests and answers against the SDK's facts.
	Spec *apispec.Enforcer

	mu       sync.Mutex
	now      func() time.Time
	accounts map[string]*sbAccount
	faults   []int
	posts    []int
	requests int
	granted  []string // permissions of SandboxToken (GrantScopes); nil: adsPermissions
	// auth is the login dialog's authorization server
	// (sandbox_authorize.go), whose tokens the API accepts too.
	auth         *oauthsandbox.Server
	clientSecret string
}

// NewSandbox returns the Meta sandbox seeded with two ad accounts of
// Northwind Analytics, a fictional B2B SaaS advertiser.
func NewSandbox() gtmgate.ProviderSandbox {
	s := newSandbox(time.Now)
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "act_1012345678901234", Label: "Northwind Analytics (USD)"},
		{ID: "2098765432109876", Label: "Northwind Analytics Japan (JPY)"},
	}}
}

func newSandbox(now func() time.Time) *Sandbox {
	s := &Sandbox{now: now, accounts: map[string]*sbAccount{}, clientSecret: oauthsandbox.NewSecret()}
	s.auth = newMetaAuth(s.clientSecret, nil)
	for _, a := range []*sbAccount{seedAccount("1012345678901234", "Northwind Analytics", "USD", 1, 23),
		seedAccount("2098765432109876", "Northwind Analytics Japan", "JPY", 40, 24)} {
		s.accounts[a.ID] = a
	}
	s.Spec = enforce(http.HandlerFunc(s.serve))
	return s
}

// FailNext makes the next n requests fail with the HTTP status and the Graph
// error Meta sends with it (401 → code 190, 400 → 100, 429 → 17, 5xx → 2).
func (s *Sandbox) FailNext(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.faults = append(s.faults, status)
	}
}

// FailNextPost makes the next n POST (change) requests fail like FailNext,
// letting a test fail a mutation after its preceding reads succeed.
func (s *Sandbox) FailNextPost(status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.posts = append(s.posts, status)
	}
}

// ThrottleNext makes the next n requests fail the way Meta throttles an ad
// account: HTTP 400 with error code 80004.
func (s *Sandbox) ThrottleNext(n int) { s.ErrorNext(80004, n) }

// ErrorNext makes the next n requests fail as Meta answers with Graph error
// code: HTTP 400 and the message of graphErrors (190 an expired token, 4,
// 17, 32, 341, 613 and 80000–80014 throttling, 10 and 200–299 a missing
// permission…).
func (s *Sandbox) ErrorNext(code, n int) { s.FailNext(-code, n) }

// Requests returns how many requests the sandbox has received.
func (s *Sandbox) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// ServeHTTP checks the token and the version, then hands the request to
// the spec's checks and the routes behind them.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	if s.serveLogin(w, r) {
		return
	}
	if !s.accepts(token(r)) {
		writeGraphError(w, http.StatusBadRequest, 190, "Invalid OAuth access token - Cannot parse access token")
		return
	}
	version, _, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if !ok || !graphVersion.MatchString(version) {
		writeGraphError(w, 400, 2500, "Unknown path components: "+r.URL.Path)
		return
	}
	if s.expired(version) {
		newest := catalogue().Newest()
		writeGraphError(w, 400, errDeprecatedVersion, "(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: "+newest+".")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/"+version+"/me/permissions" {
		s.servePermissions(w, token(r))
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/"+version+"/me/adaccounts" {
		s.serveAdAccounts(w, r)
		return
	}
	s.Spec.ServeHTTP(w, r)
}

// token reads the access token from the Authorization header, else the
// access_token parameter of the query or form body, leaving the body to be
// read again.
func token(r *http.Request) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return t
	}
	if t := r.URL.Query().Get("access_token"); t != "" {
		return t
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" || r.Body == nil {
		return ""
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	form, _ := url.ParseQuery(string(body))
	return form.Get("access_token")
}

// serve answers a request the spec's checks let through: an injected
// failure, else the route.
func (s *Sandbox) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) > 0 {
		f := s.faults[0]
		s.faults = s.faults[1:]
		writeFault(w, r, f)
		return
	}
	if r.Method == http.MethodPost && len(s.posts) > 0 {
		f := s.posts[0]
		s.posts = s.posts[1:]
		writeFault(w, r, f)
		return
	}
	if err := r.ParseForm(); err != nil {
		writeGraphError(w, 400, 100, "(#100) Could not parse the request")
		return
	}
	if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		for k, v := range body {
			r.Form.Set(k, fmt.Sprint(v))
		}
	}
	if msg := listParamError(r.Method, r.URL.EscapedPath(), r.Form); msg != "" {
		writeGraphError(w, 400, 100, msg)
		return
	}
	version, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	s.route(w, r.Method, version, path, r.Form)
}

var graphVersion = regexp.MustCompile(`^v[0-9]{1,3}\.[0-9]$`)

// expired reports whether Meta refuses version on the sandbox's day: past
// its expiry in the catalogue, or older than any version the catalogue
// knows. Meta may instead upgrade a call to an expired version when the next
// version left its endpoint unchanged; the sandbox behaves as for an app that
// turned that upgrade off.
func (s *Sandbox) expired(version string) bool {
	cat := catalogue()
	if !cat.Live(version, s.now()) {
		return true
	}
	if _, known := cat.Lookup(version); known {
		return false
	}
	return majorVersion(version) < majorVersion(cat.Versions[0].Name)
}

// majorVersion reads 26 from "v26.0"; 0 when it is not a version.
func majorVersion(v string) int {
	major, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
	n, _ := strconv.Atoi(major)
	return n
}

func (s *Sandbox) route(w http.ResponseWriter, method, version, path string, form url.Values) {
	self := "/" + version + "/" + path
	node, edge, _ := strings.Cut(path, "/")
	if id, ok := strings.CutPrefix(node, "act_"); ok {
		a := s.accounts[id]
		if a == nil || method != http.MethodGet {
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Object with ID '%s' does not exist, cannot be loaded due to missing permissions, or does not support this operation", node))
			return
		}
		switch edge {
		case "":
			writeJSON(w, 200, pick(map[string]any{"id": node, "account_id": a.ID, "name": a.Name, "currency": a.Currency,
				"timezone_name": "America/New_York"}, form.Get("fields"), "id"))
		case "insights":
			s.insights(w, a, version, self, form)
		case "campaigns":
			s.listCampaigns(w, a, self, form)
		default:
			writeGraphError(w, 400, 2500, "Unknown path components: /"+edge)
		}
		return
	}
	for _, a := range s.accounts {
		for _, c := range a.Campaigns {
			if c.ID == node && edge == "" {
				if method == http.MethodPost {
					s.updateCampaign(w, a, c, form)
				} else if checkCampaignFields(w, form) {
					writeJSON(w, 200, pick(a.campaignJSON(c), form.Get("fields"), "id"))
				}
				return
			}
		}
	}
	writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Object with ID '%s' does not exist, cannot be loaded due to missing permissions, or does not support this operation", node))
}

func writeFault(w http.ResponseWriter, r *http.Request, f int) {
	switch {
	case f < 0:
		if code := -f; code >= 80000 && code <= 80014 {
			writeBusinessUsage(w, r, code)
		}
		writeGraphErrorSub(w, http.StatusBadRequest, -f, graphErrorSubcode(-f), graphErrorMessage(-f))
	case f == 401:
		writeGraphError(w, 401, 190, "Error validating access token: Session has expired")
	case f == 429:
		writeGraphError(w, 429, 17, "User request limit reached")
	case f >= 500:
		writeGraphError(w, f, 2, "An unexpected error has occurred. Please retry your request later.")
	default:
		writeGraphError(w, f, 100, "(#100) Invalid parameter")
	}
}

// writeGraphError writes Meta's error envelope.
func writeGraphError(w http.ResponseWriter, status, code int, msg string) {
	writeGraphErrorSub(w, status, code, 0, msg)
}

// writeGraphErrorSub writes Meta's error envelope with an error_subcode (none when 0).
func writeGraphErrorSub(w http.ResponseWriter, status, code, subcode int, msg string) {
	typ := "OAuthException"
	if code == 2 {
		typ = "FacebookApiException"
	}
	e := map[string]any{"message": msg, "type": typ, "code": code, "fbtrace_id": fmt.Sprintf("AsbX%06dq", code)}
	if subcode != 0 {
		e["error_subcode"] = subcode
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// pick keeps the requested comma-separated fields of m (always def).
func pick(m map[string]any, fields, def string) map[string]any {
	out := map[string]any{def: m[def]}
	for _, f := range strings.Split(fields, ",") {
		if v, ok := m[strings.TrimSpace(f)]; ok && v != nil {
			out[strings.TrimSpace(f)] = v
		}
	}
	return out
}
