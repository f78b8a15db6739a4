package sheets

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// SandboxToken is the OAuth access token the sandbox accepts.
const SandboxToken = "sheets-sandbox-token"

// specFile is the facts of the API's discovery document the sandbox
// enforces (scripts/specgen writes it).
//
//go:embed apispec.json
var specFile []byte

// SandboxSpreadsheetID is the seeded spreadsheet, with sheets Pipeline and
// 'Lead list'.
const SandboxSpreadsheetID = "1AcmePipeline-Sandbox_2025q4"

// Sandbox is an in-process fake of the Sheets API v4 values endpoints:
// GET /v4/spreadsheets/{id}/values/{range} (valueRenderOption,
// majorDimension; trailing empty rows and cells trimmed, as Sheets does) and
// POST …/values/{range}:append (valueInputOption required; USER_ENTERED
// parses numbers and booleans; rows land after the last non-empty row and
// persist in memory). It holds one spreadsheet, SandboxSpreadsheetID, with
// a Pipeline sheet of open deals and a 'Lead list' sheet. Requests need
// Authorization: Bearer SandboxToken, else Google's 401 body; unknown
// spreadsheets are 404 and unparseable ranges 400, with Google's error
// bodies. FailNext and FailNextWith inject faults (Google's usage-limit
// errors among them), Requests counts requests.
type Sandbox struct {
	gtmgate.ProviderSandbox
	mu sync.Mutex
	googleapi.Faults
	sheets []*sheet
}

// sheet is one tab: its name and cells by row (string, float64 or bool).
type sheet struct {
	name string
	rows [][]any
}

// NewSandbox returns a Sheets sandbox with its seeded spreadsheet.
func NewSandbox() *Sandbox {
	s := &Sandbox{sheets: seed()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v4/spreadsheets/{id}/values/{range}", s.get)
	mux.HandleFunc("POST /v4/spreadsheets/{id}/values/{range}", s.append)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		googleError(w, http.StatusNotFound, "notFound", "Requested entity was not found.")
	})
	spec := apispec.Enforce(parsedSpec(), mux, func(w http.ResponseWriter, status int, msg string) {
		googleError(w, status, "badRequest", msg)
	})
	s.ProviderSandbox = gtmgate.ProviderSandbox{Provider: Provider, Handler: s.guard(spec), Spec: spec, Token: SandboxToken,
		Accounts: []gtmgate.Account{{ID: "revops@acme.example", Label: "Acme RevOps (Google account)"}}}
	return s
}

func seed() []*sheet {
	return []*sheet{
		{name: "Pipeline", rows: [][]any{
			{"Account", "Stage", "Amount", "Owner", "Close date", "Won"},
			{"Northwind Traders", "closed_won", 48000.0, "maria@acme.example", "2025-10-28", true},
			{"Globex", "negotiation", 120000.0, "sam@acme.example", "2025-12-15", false},
			{"Initech", "discovery", 18000.0, "maria@acme.example", "2026-01-20", false},
			{"Umbrella Health", "proposal", 76500.5, "li@acme.example", "2025-12-01", false},
			{"Wayne Retail", "closed_won", 95000.0, "li@acme.example", "2025-11-07", true},
		}},
		{name: "Lead list", rows: [][]any{
			{"Name", "Email", "Company", "Source"},
			{"Ada Park", "ada@globex.example", "Globex", "webinar"},
			{"Tom Reyes", "tom@initech.example", "Initech", "paid_search"},
		}},
	}
}

func (s *Sandbox) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, _ := s.Take()
		switch status := f.Status; {
		case f.Reason != "":
			googleapi.WriteFault(w, f)
			return
		case status != 0:
			googleError(w, status, "backendError", "Injected fault from the sandbox.")
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+SandboxToken {
			w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
			googleError(w, http.StatusUnauthorized, "authError",
				"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// googleError writes Google's JSON error body.
func googleError(w http.ResponseWriter, status int, reason, message string) {
	code := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
		404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}[status]
	if code == "" {
		code = "INTERNAL"
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"code": status, "message": message, "status": code,
		"errors": []map[string]any{{"message": message, "domain": "global", "reason": reason}},
	}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
