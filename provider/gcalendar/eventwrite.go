package gcalendar

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/mail"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

func createEvent(ctx context.Context, c *upstream.Client, call *gtmgate.Call, cal string, in eventsInput) (any, error) {
	e, err := eventFromInput(in, true)
	if err != nil {
		return nil, err
	}
	q := sendUpdates(in.SendUpdates)
	if in.AddConference {
		b := make([]byte, 12)
		rand.Read(b)
		e.ConferenceData = &ConferenceData{CreateRequest: &CreateConferenceRequest{RequestID: hex.EncodeToString(b),
			ConferenceSolutionKey: map[string]string{"type": "hangoutsMeet"}}}
		q.Set("conferenceDataVersion", "1")
	}
	var out Event
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: cal + "/events", Query: q, JSON: e,
		Mutating: true, Token: call.Token}, &out); err != nil {
		return nil, fmt.Errorf("google_calendar: create event: %w", err)
	}
	return out, nil
}

func updateEvent(ctx context.Context, c *upstream.Client, call *gtmgate.Call, path string, in eventsInput) (any, error) {
	e, err := eventFromInput(in, false)
	if err != nil {
		return nil, err
	}
	if in.Summary == nil && in.Description == nil && in.Location == nil && in.Start == "" && in.Attendees == nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: update needs at least one field to change").
			WithHint("pass summary, description, location, start/end or attendees")
	}
	var out Event
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPatch, Path: path, Query: sendUpdates(in.SendUpdates), JSON: patchBody(e, in),
		Mutating: true, Token: call.Token}, &out); err != nil {
		return nil, fmt.Errorf("google_calendar: update event %s: %w", in.EventID, err)
	}
	return out, nil
}

// patchBody sends only the fields the caller gave; an empty attendees list
// removes every guest, so it is sent explicitly.
func patchBody(e *Event, in eventsInput) any {
	if in.Attendees != nil && len(in.Attendees) == 0 {
		type withEmpty struct {
			*Event
			Attendees []Attendee `json:"attendees"`
		}
		return withEmpty{Event: e, Attendees: []Attendee{}}
	}
	return e
}

// eventFromInput builds the event body; create needs start and end.
func eventFromInput(in eventsInput, create bool) (*Event, error) {
	e := &Event{}
	if in.Summary != nil {
		e.Summary = *in.Summary
	}
	if in.Description != nil {
		e.Description = *in.Description
	}
	if in.Location != nil {
		e.Location = *in.Location
	}
	if (in.Start == "") != (in.End == "") {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: give start and end together")
	}
	if in.Start != "" {
		start, sAllDay, err := when("start", in.Start, in.TimeZone)
		if err != nil {
			return nil, err
		}
		end, eAllDay, err := when("end", in.End, in.TimeZone)
		if err != nil {
			return nil, err
		}
		if sAllDay != eAllDay {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: start and end must both be dates or both date-times")
		}
		if !endAfter(in.Start, in.End, sAllDay) {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: end must be after start").
				WithHint("for an all-day event, end is the day after the last day")
		}
		e.Start, e.End = start, end
	} else if create {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: start and end are required to create an event")
	}
	for _, a := range in.Attendees {
		addr, err := mail.ParseAddress(a)
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: attendee %q is not an email address", a)
		}
		e.Attendees = append(e.Attendees, Attendee{Email: addr.Address, DisplayName: addr.Name})
	}
	return e, nil
}

// when parses a start or end: an RFC 3339 date-time, or a YYYY-MM-DD date.
func when(field, v, tz string) (*EventDateTime, bool, error) {
	if _, err := time.Parse(time.DateOnly, v); err == nil {
		return &EventDateTime{Date: v}, true, nil
	}
	if _, err := time.Parse(time.RFC3339, v); err != nil {
		return nil, false, gtmgate.Errorf(gtmgate.EValidation, "calendar_events: %s %q is neither an RFC 3339 date-time nor a YYYY-MM-DD date", field, v)
	}
	return &EventDateTime{DateTime: v, TimeZone: tz}, false, nil
}

func endAfter(start, end string, allDay bool) bool {
	layout := time.RFC3339
	if allDay {
		layout = time.DateOnly
	}
	s, _ := time.Parse(layout, start)
	e, _ := time.Parse(layout, end)
	return e.After(s)
}
