package gcalendar

import (
	_ "embed"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// specFile is the facts of the Calendar API's discovery document the
// sandbox enforces (scripts/specgen writes it).
//
//go:embed apispec.json
var specFile []byte

// SandboxToken is the access token the Calendar sandbox accepts.
const SandboxToken = "sandbox-calendar-token"

// Sandbox is an in-process Google Calendar API v3 with three calendars of
// the fictional B2B SaaS company Ledgerly: alex@ledgerly.example (also
// "primary"), sales-team@ledgerly.example (shared team calendar) and
// jordan@ledgerly.example (a colleague, for free/busy). They hold meetings
// from a week ago to three weeks ahead: stand-ups, customer calls, demos,
// focus blocks and an all-day offsite. It serves events list (singleEvents,
// orderBy=startTime, timeMin/timeMax, q, paging), get, insert (with Meet
// links when conferenceDataVersion=1), patch and delete, and freeBusy
// computed from the stored events (opaque, not cancelled). Times are UTC.
//
// It requires "Authorization: Bearer sandbox-calendar-token" and answers with
// Google's error body: 401 UNAUTHENTICATED, 400 INVALID_ARGUMENT (bad times,
// empty range), 404 NOT_FOUND (unknown calendar or event), 410 for an event
// already deleted. Tests inject faults through the embedded Guard:
// FailNext(status, n) and Requests. Changes persist in memory behind a mutex.
// NewSandbox's Handler is a *Sandbox.
type Sandbox struct {
	googleapi.Guard
	// Spec checks every request and answer against the Calendar API's discovery document.
	Spec    *apispec.Enforcer
	handler http.Handler
	now     func() time.Time

	mu        sync.Mutex
	calendars map[string]*calendar
	nextID    int
}

type calendar struct {
	id, summary string
	events      []*Event
}

// NewSandbox returns the Calendar sandbox as a ProviderSandbox.
func NewSandbox() gtmgate.ProviderSandbox {
	s := NewSandboxAt(time.Now())
	return gtmgate.ProviderSandbox{Provider: Provider, Handler: s, Spec: s.Spec, Token: SandboxToken, Accounts: []gtmgate.Account{
		{ID: "primary", Label: "alex@ledgerly.example"},
		{ID: "sales-team@ledgerly.example", Label: "Ledgerly sales team calendar"},
	}}
}

// NewSandboxAt returns a sandbox whose seeded events are placed around now.
func NewSandboxAt(now time.Time) *Sandbox {
	s := &Sandbox{Guard: googleapi.Guard{Token: SandboxToken}, now: time.Now, calendars: map[string]*calendar{}}
	s.seed(now.UTC())
	mux := googleapi.NewMux()
	const c = "/calendar/v3/calendars/{cal}/events"
	mux.HandleFunc("GET "+c, s.listEvents)
	mux.HandleFunc("POST "+c, s.insertEvent)
	mux.HandleFunc("GET "+c+"/{id}", s.getEvent)
	mux.HandleFunc("PATCH "+c+"/{id}", s.patchEvent)
	mux.HandleFunc("DELETE "+c+"/{id}", s.deleteEvent)
	mux.HandleFunc("POST /calendar/v3/freeBusy", s.freeBusy)
	s.Spec = googleapi.Enforce(parsedSpec(), mux)
	s.handler = s.Wrap(s.Spec)
	return s
}

// ServeHTTP serves the Calendar API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Event returns a copy of a stored event, for tests.
func (s *Sandbox) Event(calendarID, id string) (Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.calendar(calendarID); c != nil {
		if e := c.event(id); e != nil {
			return *e, true
		}
	}
	return Event{}, false
}

// calendar resolves a calendar id; s.mu must be held.
func (s *Sandbox) calendar(id string) *calendar {
	if id == "primary" {
		id = "alex@ledgerly.example"
	}
	return s.calendars[strings.ToLower(id)]
}

func (c *calendar) event(id string) *Event {
	for _, e := range c.events {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// span returns an event's start and end instants (all-day dates at UTC midnight).
func span(e *Event) (time.Time, time.Time) {
	return instant(e.Start), instant(e.End)
}

func instant(d *EventDateTime) time.Time {
	if d == nil {
		return time.Time{}
	}
	if d.Date != "" {
		t, _ := time.Parse(time.DateOnly, d.Date)
		return t
	}
	t, _ := time.Parse(time.RFC3339, d.DateTime)
	return t
}
