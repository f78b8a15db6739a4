package gcalendar

import (
	"fmt"
	"time"
)

type seedEvent struct {
	summary, description, location string
	day                            int // days from today
	hour, minute, minutes          int // start (UTC) and length; minutes 0 = all day
	attendees                      []string
	transparent, meet              bool
}

// weekdays returns the day offsets of weekdays from -7 to +21 around today.
func weekdays(today time.Time) []int {
	var out []int
	for d := -7; d <= 21; d++ {
		if wd := today.AddDate(0, 0, d).Weekday(); wd != time.Saturday && wd != time.Sunday {
			out = append(out, d)
		}
	}
	return out
}

// nextWeekday is the first offset ≥ from that falls on wd.
func nextWeekday(today time.Time, from int, wd time.Weekday) int {
	for d := from; ; d++ {
		if today.AddDate(0, 0, d).Weekday() == wd {
			return d
		}
	}
}

func alexEvents(today time.Time) []seedEvent {
	var out []seedEvent
	for _, d := range weekdays(today) {
		out = append(out, seedEvent{summary: "Growth stand-up", day: d, hour: 9, minute: 30, minutes: 15,
			attendees: []string{"jordan@ledgerly.example", "mia@ledgerly.example"}, meet: true})
	}
	for _, week := range []int{-7, 0, 7, 14} {
		mon := nextWeekday(today, week, time.Monday)
		out = append(out,
			seedEvent{summary: "Pipeline review", day: mon, hour: 16, minutes: 60, attendees: []string{"jordan@ledgerly.example", "sales-team@ledgerly.example"}},
			seedEvent{summary: "1:1 Jordan / Alex", day: mon + 1, hour: 14, minutes: 30, attendees: []string{"jordan@ledgerly.example"}},
			seedEvent{summary: "Focus: board deck", day: mon + 3, hour: 13, minutes: 120, transparent: true})
	}
	thu := nextWeekday(today, 1, time.Thursday)
	wed := nextWeekday(today, 1, time.Wednesday)
	return append(out,
		seedEvent{summary: "Acme Logistics — renewal call", description: "Two-year renewal, 45 seats + SSO. Procurement: Priya Shah.",
			day: thu, hour: 15, minutes: 45, attendees: []string{"dana.ortiz@acmelogistics.example", "priya.shah@acmelogistics.example"}, meet: true},
		seedEvent{summary: "Brightwave walkthrough (Lena Fischer)", description: "MRR, cohorts, multi-currency ARR.", day: wed, hour: 9, minutes: 30,
			attendees: []string{"lena@brightwave.example", "sam@brightwave.example"}, meet: true},
		seedEvent{summary: "Northpeak security review", location: "Zoom", day: wed + 7, hour: 16, minutes: 60,
			attendees: []string{"marco@northpeak.example", "security@ledgerly.example"}},
		seedEvent{summary: "SaaS Metrics Live — speaker prep", day: thu + 7, hour: 11, minutes: 30, attendees: []string{"chloe@saasmetricslive.example"}, meet: true},
		seedEvent{summary: "Team offsite — Lisbon", location: "Lisbon, Portugal", day: nextWeekday(today, 15, time.Thursday), minutes: 0, transparent: false},
		seedEvent{summary: "Helio Health intro call", day: -2, hour: 17, minutes: 30, attendees: []string{"ravi@heliohealth.example"}},
	)
}

func salesEvents(today time.Time) []seedEvent {
	return []seedEvent{
		{summary: "Demo: Fernhill Capital", day: nextWeekday(today, 1, time.Tuesday), hour: 15, minutes: 45, attendees: []string{"olivia.grant@fernhill.example"}, meet: true},
		{summary: "Sales team pipeline review", day: nextWeekday(today, 0, time.Monday), hour: 16, minutes: 60},
	}
}

func jordanEvents(today time.Time) []seedEvent {
	var out []seedEvent
	for _, d := range weekdays(today) {
		out = append(out, seedEvent{summary: "Prospecting block", day: d, hour: 10, minutes: 90})
	}
	return out
}

func (s *Sandbox) seed(now time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		id, summary string
		events      []seedEvent
	}{
		{"alex@ledgerly.example", "Alex Rivera", alexEvents(today)},
		{"sales-team@ledgerly.example", "Sales team", salesEvents(today)},
		{"jordan@ledgerly.example", "Jordan Lee", jordanEvents(today)},
	} {
		cal := &calendar{id: c.id, summary: c.summary}
		s.calendars[c.id] = cal
		for i, se := range c.events {
			e := &Event{ID: fmt.Sprintf("ldg%s%04d", idPart(c.id), i), Summary: se.summary, Description: se.description,
				Location: se.location, Created: today.AddDate(0, 0, -30).Format(time.RFC3339)}
			day := today.AddDate(0, 0, se.day)
			if se.minutes == 0 {
				e.Start, e.End = &EventDateTime{Date: day.Format(time.DateOnly)}, &EventDateTime{Date: day.AddDate(0, 0, 2).Format(time.DateOnly)}
			} else {
				start := day.Add(time.Duration(se.hour)*time.Hour + time.Duration(se.minute)*time.Minute)
				e.Start = &EventDateTime{DateTime: start.Format(time.RFC3339), TimeZone: "UTC"}
				e.End = &EventDateTime{DateTime: start.Add(time.Duration(se.minutes) * time.Minute).Format(time.RFC3339), TimeZone: "UTC"}
			}
			if se.transparent {
				e.Transparency = "transparent"
			}
			for _, a := range se.attendees {
				e.Attendees = append(e.Attendees, Attendee{Email: a, ResponseStatus: "accepted"})
			}
			if se.meet {
				e.ConferenceData = &ConferenceData{CreateRequest: &CreateConferenceRequest{RequestID: e.ID}}
			}
			s.complete(cal, e, se.meet)
			e.Updated = e.Created
			cal.events = append(cal.events, e)
		}
	}
}

// idPart keeps seeded ids in the base32hex alphabet (a-v, 0-9).
func idPart(calendarID string) string {
	switch calendarID[0] {
	case 'a':
		return "a"
	case 's':
		return "s"
	}
	return "j"
}
