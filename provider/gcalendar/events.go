package gcalendar

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type eventsInput struct {
	EventID       string   `json:"event_id"`
	TimeMin       string   `json:"time_min"`
	TimeMax       string   `json:"time_max"`
	Q             string   `json:"q"`
	Summary       *string  `json:"summary"`
	Description   *string  `json:"description"`
	Location      *string  `json:"location"`
	Start         string   `json:"start"`
	End           string   `json:"end"`
	TimeZone      string   `json:"time_zone"`
	Attendees     []string `json:"attendees"`
	AddConference bool     `json:"add_conference"`
	SendUpdates   string   `json:"send_updates"`
}

func eventsTool(c *upstream.Client) gtmgate.Tool {
	str := func(desc string, max int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(max), Description: desc}
	}
	return gtmgate.Tool{
		Name: "calendar_events", Domain: "calendar", Provider: Provider, Title: "Google Calendar events",
		Description: "List upcoming Google Calendar events in a time window, get one, or create, update or delete a meeting " +
			"(attendees, optional Meet link).",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "events between time_min (default now) and time_max", Category: gtmgate.CategoryCalendarOp, List: true},
			{Name: "get", Description: "one event", Category: gtmgate.CategoryCalendarOp, Required: []string{"event_id"}},
			{Name: "create", Description: "create an event", Category: gtmgate.CategoryCalendarOp, Mutating: true, Required: []string{"summary", "start", "end"}},
			{Name: "update", Description: "change the given fields of an event", Category: gtmgate.CategoryCalendarOp, Mutating: true, Required: []string{"event_id"}},
			{Name: "delete", Description: "delete an event (guests are told when send_updates says so)", Category: gtmgate.CategoryCalendarOp,
				Mutating: true, Destructive: true, Required: []string{"event_id"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"event_id":    str("", 1024),
			"time_min":    {Type: "string", Format: "date-time"},
			"time_max":    {Type: "string", Format: "date-time"},
			"q":           str("", 500),
			"summary":     str("Title.", 1024),
			"description": str("", 8192),
			"location":    str("", 1024),
			"start":       str("RFC 3339 date-time, or YYYY-MM-DD for all day.", 64),
			"end":         str("As start; an all-day end is the day after.", 64),
			"time_zone":   str("", 64),
			"attendees": {Type: "array", MaxItems: jsonschema.Ptr(100), Description: "Emails; update replaces the list.",
				Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(320)}},
			"add_conference": {Type: "boolean"},
			"send_updates":   {Type: "string", Enum: []any{"all", "externalOnly", "none"}},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) { return runEvents(ctx, c, call) },
	}
}

func runEvents(ctx context.Context, c *upstream.Client, call *gtmgate.Call) (any, error) {
	var in eventsInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	cal, err := calendarPath(c.APIVersion(), call.Account)
	if err != nil {
		return nil, err
	}
	if call.Action.Name == "list" {
		return listEvents(ctx, c, call, cal, in)
	}
	if call.Action.Name == "create" {
		return createEvent(ctx, c, call, cal, in)
	}
	if err := validEventID(in.EventID); err != nil {
		return nil, err
	}
	path := cal + "/events/" + in.EventID
	switch call.Action.Name {
	case "get":
		var e Event
		if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: path, Token: call.Token}, &e); err != nil {
			return nil, fmt.Errorf("google_calendar: get event %s: %w", in.EventID, err)
		}
		return e, nil
	case "update":
		return updateEvent(ctx, c, call, path, in)
	}
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodDelete, Path: path, Query: sendUpdates(in.SendUpdates),
		Mutating: true, Token: call.Token}, nil); err != nil {
		return nil, fmt.Errorf("google_calendar: delete event %s: %w", in.EventID, err)
	}
	return map[string]any{"id": in.EventID, "deleted": true}, nil
}

func listEvents(ctx context.Context, c *upstream.Client, call *gtmgate.Call, cal string, in eventsInput) (any, error) {
	q := url.Values{"singleEvents": {"true"}, "orderBy": {"startTime"}, "maxResults": {strconv.Itoa(call.Limit)}}
	q.Set("timeMin", in.TimeMin)
	if in.TimeMin == "" {
		q.Set("timeMin", time.Now().UTC().Format(time.RFC3339))
	}
	if in.TimeMax != "" {
		q.Set("timeMax", in.TimeMax)
	}
	text := in.Q
	if f := call.Filter; f != nil {
		switch {
		case f.Operator != "EQ" && f.Operator != "CONTAINS_TOKEN":
			return nil, googleapi.Unsupported(call.Tool.Name, f, "EQ or CONTAINS_TOKEN (free-text match on summary, description, location, attendees)")
		case f.Property != "summary" && f.Property != "description" && f.Property != "location" && f.Property != "attendees" && f.Property != "q":
			return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: cannot filter on %q", f.Property).
				WithHint("filter on summary, description, location or attendees; use time_min/time_max for times")
		}
		v, ok := f.Value.(string)
		if !ok || v == "" {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: filter value must be a non-empty string")
		}
		text = joinWords(text, v)
	}
	if text != "" {
		q.Set("q", text)
	}
	if call.Cursor != "" {
		q.Set("pageToken", call.Cursor)
	}
	var list eventList
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: cal + "/events", Query: q, Token: call.Token}, &list); err != nil {
		return nil, fmt.Errorf("google_calendar: list events: %w", err)
	}
	return googleapi.NewPage(list.Items, list.NextPageToken), nil
}

func joinWords(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

func sendUpdates(v string) url.Values {
	if v == "" {
		v = "none"
	}
	return url.Values{"sendUpdates": {v}}
}
