package bigquery

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// SandboxToken is the OAuth access token the sandbox accepts.
const SandboxToken = "bigquery-sandbox-token"

// specFile is the facts of the API's discovery document the sandbox
// enforces (scripts/specgen writes it).
//
//go:embed apispec.json
var specFile []byte

// Sandbox project ids: the first holds the seeded data, the second is empty.
const (
	SandboxProject      = "acme-analytics"
	SandboxEmptyProject = "acme-staging"
)

// Sandbox is an in-process fake of the BigQuery REST API v2. It serves
// jobs.insert (dry runs only: statistics.query.statementType and
// totalBytesProcessed; a jobReference without a valid jobId is refused with
// 400 invalid, as BigQuery refuses it), jobs.query, jobs.getQueryResults (pageToken paging
// over stored job results; repeating a query is a cache hit),
// datasets.list, tables.list and tables.get, on project acme-analytics with
// datasets marketing (ad_spend, web_sessions) and sales (opportunities),
// and an empty project acme-staging. It evaluates
// SELECT cols|* FROM dataset.table [WHERE col = value|@param] [LIMIT n];
// other SELECTs dry-run honestly (bytes of the tables they name) but run
// into 400 invalidQuery. maximumBytesBilled is enforced. Requests need
// Authorization: Bearer SandboxToken, else Google's 401 body. FailNext and
// FailNextWith inject faults (Google's usage-limit errors among them),
// Requests counts requests.
type Sandbox struct {
	gtmgate.ProviderSandbox
	mu sync.Mutex
	googleapi.Faults
	datasets []*sbDataset
	jobs     map[string]*sbJob
	cache    map[string]string // query fingerprint → job id
	nextJob  int
	// forceStatementType, when set, is what dry runs report (tests of the gate).
	forceStatementType string
}

// NewSandbox returns a BigQuery sandbox with its seeded projects.
func NewSandbox() *Sandbox {
	s := &Sandbox{datasets: seedDatasets(), jobs: map[string]*sbJob{}, cache: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /bigquery/v2/projects/{project}/jobs", s.insertJob)
	mux.HandleFunc("POST /bigquery/v2/projects/{project}/queries", s.query)
	mux.HandleFunc("GET /bigquery/v2/projects/{project}/queries/{job}", s.getQueryResults)
	mux.HandleFunc("GET /bigquery/v2/projects/{project}/datasets", s.listDatasets)
	mux.HandleFunc("GET /bigquery/v2/projects/{project}/datasets/{dataset}/tables", s.listTables)
	mux.HandleFunc("GET /bigquery/v2/projects/{project}/datasets/{dataset}/tables/{table}", s.getTable)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		googleError(w, http.StatusNotFound, "notFound", "Not found: "+r.URL.Path)
	})
	spec := apispec.Enforce(parsedSpec(), mux, func(w http.ResponseWriter, status int, msg string) {
		googleError(w, status, "invalid", msg)
	})
	s.ProviderSandbox = gtmgate.ProviderSandbox{Provider: Provider, Handler: s.guard(s.withProjectList(spec)), Spec: spec, Token: SandboxToken,
		Accounts: []gtmgate.Account{
			{ID: SandboxProject, Label: "Acme Analytics (GCP project)"},
			{ID: SandboxEmptyProject, Label: "Acme Staging (empty GCP project)"},
		}}
	return s
}

func (s *Sandbox) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, _ := s.Take()
		switch status := f.Status; {
		case f.Reason != "":
			googleapi.WriteFault(w, f)
			return
		case status != 0:
			googleError(w, status, faultReason(status), "Injected fault from the sandbox.")
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+SandboxToken {
			unauthenticated(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// project returns the seeded datasets of the request's project, or writes
// Google's 404 and returns false.
func (s *Sandbox) project(w http.ResponseWriter, r *http.Request) ([]*sbDataset, bool) {
	switch r.PathValue("project") {
	case SandboxProject:
		return s.datasets, true
	case SandboxEmptyProject:
		return nil, true
	}
	googleError(w, http.StatusNotFound, "notFound", "Not found: Project "+r.PathValue("project"))
	return nil, false
}

// offsetToken reads a sandbox page token (a row offset).
func offsetToken(tok string) (int, bool) {
	if tok == "" {
		return 0, true
	}
	n, err := strconv.Atoi(tok)
	return n, err == nil && n >= 0
}

func maxResults(r *http.Request, def int) int {
	if n, err := strconv.Atoi(r.URL.Query().Get("maxResults")); err == nil && n > 0 {
		return n
	}
	return def
}

func unauthenticated(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
	writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{
		"code": 401, "status": "UNAUTHENTICATED",
		"message": "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
		"errors":  []map[string]any{{"message": "Invalid Credentials", "domain": "global", "reason": "authError", "location": "Authorization", "locationType": "header"}},
	}})
}

// googleError writes Google's JSON error body.
func googleError(w http.ResponseWriter, status int, reason, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"code": status, "message": message, "status": grpcStatus(status),
		"errors": []map[string]any{{"message": message, "domain": "global", "reason": reason}},
	}})
}

func grpcStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 409:
		return "ALREADY_EXISTS"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	default:
		return "INTERNAL"
	}
}

func faultReason(status int) string {
	switch status {
	case 400:
		return "invalid"
	case 403:
		return "accessDenied"
	case 404:
		return "notFound"
	case 429:
		return "rateLimitExceeded"
	default:
		return "backendError"
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func i64(n int64) string { return fmt.Sprint(n) }
