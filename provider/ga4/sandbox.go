package ga4

import (
	"net/http"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// SandboxToken is the access token the GA4 sandbox accepts.
const SandboxToken = "sandbox-ga4-token"

// sandboxDays is how many days before today the sandbox holds.
const sandboxDays = 90

// Sandbox is an in-process GA4 Data API (v1beta) for the demo and tests. It
// serves runReport, runRealtimeReport and metadata for two properties of a
// fictional B2B SaaS company, Ledgerly: 412345678 (www.ledgerly.example, 90
// days of daily sessions, users, key events and revenue by channel, country,
// device and landing page) and 398765432 (docs.ledgerly.example, smaller).
// Data are generated deterministically from the property id and the day the
// sandbox was created (UTC).
//
// It requires "Authorization: Bearer sandbox-ga4-token" and answers with
// Google's error body (401 UNAUTHENTICATED, 400 INVALID_ARGUMENT for unknown
// fields or bad dates, 403 PERMISSION_DENIED for unknown properties). Tests
// inject faults through the embedded Guard: FailNext(status, n) fails the
// next n requests; Requests counts requests. NewSandbox's Handler is a *Sandbox.
type Sandbox struct {
	googleapi.Guard
	handler    http.Handler
	today      time.Time
	properties map[string]*sandboxProperty
}

type sandboxProperty struct {
	daily, realtime *table
}

// NewSandbox returns the GA4 sandbox as a ProviderSandbox.
func NewSandbox() gtmgate.ProviderSandbox {
	s := NewSandboxAt(time.Now())
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "412345678", Label: "Ledgerly – www.ledgerly.example"},
		{ID: "398765432", Label: "Ledgerly – docs.ledgerly.example"},
	}}
}

// NewSandboxAt returns a sandbox whose "today" is now's UTC date.
func NewSandboxAt(now time.Time) *Sandbox {
	y, m, d := now.UTC().Date()
	s := &Sandbox{Guard: googleapi.Guard{Token: SandboxToken}, today: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
	s.properties = map[string]*sandboxProperty{
		"412345678": {daily: dailyTable(412345678, s.today, sandboxDays, 1), realtime: realtimeTable(412345678, 1)},
		"398765432": {daily: dailyTable(398765432, s.today, sandboxDays, .25), realtime: realtimeTable(398765432, .25)},
	}
	mux := googleapi.NewMux()
	mux.HandleFunc("POST /v1beta/properties/{call}", s.serveRPC)
	mux.HandleFunc("GET /v1beta/properties/{id}/metadata", s.serveMetadata)
	s.handler = s.Wrap(mux)
	return s
}

// ServeHTTP serves the Data API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Sandbox) property(w http.ResponseWriter, id string) (*sandboxProperty, bool) {
	p, ok := s.properties[id]
	if !ok {
		googleapi.WriteError(w, http.StatusForbidden, "User does not have sufficient permissions for this property. "+
			"To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.")
	}
	return p, ok
}

// serveRPC dispatches the custom methods "{id}:runReport" and "{id}:runRealtimeReport".
func (s *Sandbox) serveRPC(w http.ResponseWriter, r *http.Request) {
	id, method, _ := strings.Cut(r.PathValue("call"), ":")
	switch method {
	case "runReport":
		if p, ok := s.property(w, id); ok {
			s.runReport(w, r, p)
		}
	case "runRealtimeReport":
		if p, ok := s.property(w, id); ok {
			s.runRealtime(w, r, p)
		}
	default:
		googleapi.WriteError(w, http.StatusNotFound, "Method not found.")
	}
}

func (s *Sandbox) serveMetadata(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := s.property(w, id); !ok {
		return
	}
	md := Metadata{Name: "properties/" + id + "/metadata", Dimensions: reportCatalog.dimensions}
	for _, m := range reportCatalog.metrics {
		md.Metrics = append(md.Metrics, m.MetricMetadata)
	}
	googleapi.WriteJSON(w, http.StatusOK, md)
}
