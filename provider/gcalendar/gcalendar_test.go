package gcalendar

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/googleapi/googleapitest"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type fixture struct {
	providertest.Kit
	sandbox *Sandbox
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	sb := NewSandbox()
	url := providertest.Serve(t, sb)
	tools := Tools(upstream.MustNew(Options(url)))
	return &fixture{Kit: providertest.NewKit(tools, sb.Accounts[0], SandboxToken), sandbox: sb.Handler.(*Sandbox)}
}

func items(res map[string]any) []map[string]any {
	var out []map[string]any
	for _, v := range res["items"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func day(d int) time.Time {
	n := time.Now().UTC()
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, d)
}

func rfc(t time.Time) string { return t.Format(time.RFC3339) }

func TestListEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	window := `"time_min":"` + rfc(day(0)) + `","time_max":"` + rfc(day(21)) + `"`
	tests := []struct {
		name, extra string
		check       func(e map[string]any) bool
	}{
		{"window", "", func(e map[string]any) bool { return e["summary"] != nil }},
		{"q", `,"q":"acme"`, func(e map[string]any) bool { return strings.Contains(e["summary"].(string), "Acme") }},
		{"filter CONTAINS_TOKEN", `,"filter":{"property":"summary","operator":"CONTAINS_TOKEN","value":"stand-up"}`,
			func(e map[string]any) bool { return e["summary"] == "Growth stand-up" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs := items(f.MustRun(t, "calendar_events", `{"rationale":"r","action":"list","limit":100,`+window+tt.extra+`}`))
			if len(evs) == 0 {
				t.Fatal("no events")
			}
			prev := ""
			for _, e := range evs {
				start := googleapitest.Get(e, "start", "dateTime")
				if start == nil {
					start = googleapitest.Get(e, "start", "date")
				}
				if s := start.(string); s < prev {
					t.Errorf("not ordered by start: %s after %s", s, prev)
				} else {
					prev = s
				}
				if !tt.check(e) {
					t.Errorf("event %v fails the check", e["summary"])
				}
			}
		})
	}
	_, err := providertest.Run(t, f.Tools["calendar_events"], f.Account, SandboxToken,
		`{"rationale":"r","action":"list","filter":{"property":"start","operator":"GT","value":"x"}}`)
	if googleapitest.Code(err) != gtmgate.EValidation {
		t.Errorf("filter on start: %v", err)
	}
}

func TestListPaging(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	seen := map[string]bool{}
	cursor, pages := "", 0
	for ; pages < 20; pages++ {
		in := `{"rationale":"r","action":"list","limit":10,"time_min":"` + rfc(day(-7)) + `"`
		if cursor != "" {
			in += `,"cursor":"` + cursor + `"`
		}
		res := f.MustRun(t, "calendar_events", in+"}")
		for _, e := range items(res) {
			seen[e["id"].(string)] = true
		}
		cursor, _ = res["next_cursor"].(string)
		if cursor == "" {
			break
		}
	}
	if want := len(f.sandbox.calendars["alex@ledgerly.example"].events); len(seen) != want || pages < 2 {
		t.Errorf("paged %d distinct events in %d pages, want %d", len(seen), pages+1, want)
	}
}

// TestEventLifecycle creates, reads, updates and deletes an event and
// checks free/busy after each change.
func TestEventLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	slotStart := day(2).Add(20 * time.Hour) // 20:00 UTC: nothing seeded then
	busyAt := func(at time.Time) bool {
		fb := f.MustRun(t, "calendar_freebusy", `{"rationale":"r","time_min":"`+rfc(day(2))+`","time_max":"`+rfc(day(3))+`"}`)
		cal := fb["calendars"].([]any)[0].(map[string]any)
		for _, b := range cal["busy"].([]any) {
			s, _ := time.Parse(time.RFC3339, b.(map[string]any)["start"].(string))
			e, _ := time.Parse(time.RFC3339, b.(map[string]any)["end"].(string))
			if !at.Before(s) && at.Before(e) {
				return true
			}
		}
		return false
	}
	if busyAt(slotStart.Add(10 * time.Minute)) {
		t.Fatal("slot busy before the event exists")
	}
	created := f.MustRun(t, "calendar_events", `{"rationale":"book the call","action":"create","summary":"Fernhill Capital — pricing",
		"description":"Follow-up on the demo","start":"`+rfc(slotStart)+`","end":"`+rfc(slotStart.Add(30*time.Minute))+`",
		"time_zone":"UTC","attendees":["Olivia Grant <olivia.grant@fernhill.example>"],"add_conference":true,"send_updates":"all"}`)
	id := created["id"].(string)
	if created["status"] != "confirmed" || !strings.HasPrefix(created["hangoutLink"].(string), "https://meet.google.com/") ||
		googleapitest.Get(created, "attendees", 0, "email") != "olivia.grant@fernhill.example" {
		t.Fatalf("created = %v", created)
	}
	if !busyAt(slotStart.Add(10 * time.Minute)) {
		t.Error("free/busy does not show the new event")
	}
	got := f.MustRun(t, "calendar_events", `{"rationale":"r","action":"get","event_id":"`+id+`"}`)
	if got["summary"] != "Fernhill Capital — pricing" {
		t.Errorf("get = %v", got)
	}
	moved := slotStart.Add(2 * time.Hour)
	updated := f.MustRun(t, "calendar_events", `{"rationale":"move it","action":"update","event_id":"`+id+`","summary":"Fernhill Capital — pricing (moved)",
		"start":"`+rfc(moved)+`","end":"`+rfc(moved.Add(30*time.Minute))+`"}`)
	if updated["summary"] != "Fernhill Capital — pricing (moved)" || updated["description"] != "Follow-up on the demo" ||
		googleapitest.Get(updated, "attendees", 0, "email") != "olivia.grant@fernhill.example" {
		t.Errorf("update lost or missed fields: %v", updated)
	}
	if busyAt(slotStart.Add(10*time.Minute)) || !busyAt(moved.Add(10*time.Minute)) {
		t.Error("free/busy does not follow the moved event")
	}
	del := f.MustRun(t, "calendar_events", `{"rationale":"cancelled by customer","action":"delete","event_id":"`+id+`"}`)
	if del["deleted"] != true {
		t.Errorf("delete = %v", del)
	}
	if busyAt(moved.Add(10 * time.Minute)) {
		t.Error("free/busy still shows the deleted event")
	}
	if e, _ := f.sandbox.Event("primary", id); e.Status != "cancelled" {
		t.Errorf("stored status = %q", e.Status)
	}
	_, err := providertest.Run(t, f.Tools["calendar_events"], f.Account, SandboxToken, `{"rationale":"r","action":"delete","event_id":"`+id+`"}`)
	googleapitest.UpstreamError(t, err, 410)
}

func TestFreeBusy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fb := f.MustRun(t, "calendar_freebusy", `{"rationale":"find a slot","time_min":"`+rfc(day(0))+`","time_max":"`+rfc(day(7))+`",
		"calendars":["alex@ledgerly.example","jordan@ledgerly.example","nobody@ledgerly.example"]}`)
	cals := fb["calendars"].([]any)
	if len(cals) != 3 {
		t.Fatalf("calendars = %v", cals)
	}
	for _, c := range cals {
		c := c.(map[string]any)
		busy := c["busy"].([]any)
		switch c["id"] {
		case "nobody@ledgerly.example":
			if googleapitest.Get(c, "errors", 0, "reason") != "notFound" {
				t.Errorf("unknown calendar = %v", c)
			}
		default:
			if len(busy) == 0 {
				t.Errorf("%s has no busy time", c["id"])
			}
			for i := 1; i < len(busy); i++ {
				if busy[i].(map[string]any)["start"].(string) <= busy[i-1].(map[string]any)["end"].(string) {
					t.Errorf("intervals overlap or are unsorted: %v", busy)
				}
			}
		}
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct{ name, tool, input string }{
		{"end before start", "calendar_events", `{"rationale":"r","action":"create","summary":"x","start":"2030-01-02T10:00:00Z","end":"2030-01-02T09:00:00Z"}`},
		{"mixed all-day and timed", "calendar_events", `{"rationale":"r","action":"create","summary":"x","start":"2030-01-02","end":"2030-01-02T09:00:00Z"}`},
		{"bad attendee", "calendar_events", `{"rationale":"r","action":"create","summary":"x","start":"2030-01-02","end":"2030-01-03","attendees":["bob"]}`},
		{"missing summary", "calendar_events", `{"rationale":"r","action":"create","start":"2030-01-02","end":"2030-01-03"}`},
		{"update with nothing", "calendar_events", `{"rationale":"r","action":"update","event_id":"ldga0001"}`},
		{"path in event id", "calendar_events", `{"rationale":"r","action":"get","event_id":"../../users/me"}`},
		{"freebusy empty window", "calendar_freebusy", `{"rationale":"r","time_min":"2030-01-02T10:00:00Z","time_max":"2030-01-02T10:00:00Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := providertest.Run(t, f.Tools[tt.tool], f.Account, SandboxToken, tt.input)
			if googleapitest.Code(err) != gtmgate.EValidation {
				t.Errorf("err = %v, want VALIDATION_ERROR", err)
			}
		})
	}
	_, err := providertest.Run(t, f.Tools["calendar_events"], f.Account, SandboxToken, `{"rationale":"r","action":"get","event_id":"ldga9999"}`)
	googleapitest.UpstreamError(t, err, 404)
}

// TestUsageLimits: Calendar's rate limits (userRateLimitExceeded,
// rateLimitExceeded) and its usage limits (quotaExceeded "Calendar usage
// limits exceeded.", hours on one user's calendar) come as HTTP 403
// (developers.google.com/workspace/calendar/api/guides/errors, read
// 2026-11): RATE_LIMITED, the usage limit not retried at once.
func TestUsageLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	list := `{"rationale":"r","action":"list"}`
	googleapitest.CheckUsageLimits(t, f.sandbox, f.Tools["calendar_events"], f.Account, SandboxToken, list)
	before := f.sandbox.Requests()
	f.sandbox.FailNextWith(googleapi.FaultCalendarUsageLimits, 1)
	_, err := providertest.Run(t, f.Tools["calendar_events"], f.Account, SandboxToken, list)
	if e := providertest.WantCode(t, err, gtmgate.ERateLimited); e.Hint != googleapi.HintQuota || !strings.Contains(e.Message, "Calendar usage limits exceeded.") {
		t.Errorf("usage limits: message %q, hint %q", e.Message, e.Hint)
	}
	if n := f.sandbox.Requests() - before; n != 1 {
		t.Errorf("usage limits: %d requests, want 1", n)
	}
}

func TestUpstreamFaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	list := `{"rationale":"r","action":"list"}`
	fb := `{"rationale":"r","time_min":"` + rfc(day(0)) + `","time_max":"` + rfc(day(1)) + `"}`
	create := `{"rationale":"r","action":"create","summary":"x","start":"2030-01-02","end":"2030-01-03"}`
	t.Run("bad token", func(t *testing.T) { googleapitest.CheckBadToken(t, f.Tools["calendar_events"], f.Account, list) })
	t.Run("list retried", func(t *testing.T) {
		googleapitest.CheckReadRetried(t, f.sandbox, f.Tools["calendar_events"], f.Account, SandboxToken, list)
	})
	t.Run("freebusy retried", func(t *testing.T) {
		googleapitest.CheckReadRetried(t, f.sandbox, f.Tools["calendar_freebusy"], f.Account, SandboxToken, fb)
	})
	t.Run("create not retried", func(t *testing.T) {
		n := len(f.sandbox.calendars["alex@ledgerly.example"].events)
		googleapitest.CheckNotRetried(t, f.sandbox, f.Tools["calendar_events"], f.Account, SandboxToken, create)
		if m := len(f.sandbox.calendars["alex@ledgerly.example"].events); m != n {
			t.Errorf("events %d → %d after a failed create", n, m)
		}
	})
	t.Run("400 carries Google's message", func(t *testing.T) {
		googleapitest.CheckBadRequest(t, f.Tools["calendar_events"], f.Account, SandboxToken,
			`{"rationale":"r","action":"list","cursor":"not-a-token"}`, "Invalid page token value.")
	})
}

func TestMain(m *testing.M) { spectest.Main(m) }
