package gcalendar

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

func notFound(w http.ResponseWriter) { googleapi.WriteError(w, http.StatusNotFound, "Not Found") }

func (s *Sandbox) listEvents(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calendar(r.PathValue("cal"))
	if c == nil {
		notFound(w)
		return
	}
	q := r.URL.Query()
	if q.Get("orderBy") == "startTime" && q.Get("singleEvents") != "true" {
		googleapi.WriteError(w, http.StatusBadRequest, "The requested ordering is not available for the particular query.")
		return
	}
	var tmin, tmax time.Time
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"timeMin", &tmin}, {"timeMax", &tmax}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				googleapi.WriteError(w, http.StatusBadRequest, "Bad Request")
				return
			}
			*p.t = t
		}
	}
	size, offset := 250, 0
	if v, err := strconv.Atoi(q.Get("maxResults")); err == nil && v > 0 {
		size = min(v, 2500)
	}
	if v := q.Get("pageToken"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			googleapi.WriteError(w, http.StatusBadRequest, "Invalid page token value.")
			return
		}
		offset = n
	}
	text := strings.ToLower(q.Get("q"))
	var items []Event
	for _, e := range c.events {
		start, end := span(e)
		if e.Status == "cancelled" && q.Get("showDeleted") != "true" ||
			!tmin.IsZero() && !end.After(tmin) || !tmax.IsZero() && !start.Before(tmax) || !matchesText(e, text) {
			continue
		}
		items = append(items, *e)
	}
	slices.SortStableFunc(items, func(a, b Event) int { return instant(a.Start).Compare(instant(b.Start)) })
	resp := eventList{Kind: "calendar#events", Summary: c.summary, TimeZone: "UTC", Items: []Event{}}
	resp.Items = append(resp.Items, items[min(offset, len(items)):min(offset+size, len(items))]...)
	if offset+size < len(items) {
		resp.NextPageToken = strconv.Itoa(offset + size)
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}

// matchesText is the sandbox's q: every word in summary, description,
// location or an attendee.
func matchesText(e *Event, text string) bool {
	hay := strings.ToLower(e.Summary + " " + e.Description + " " + e.Location)
	for _, a := range e.Attendees {
		hay += " " + strings.ToLower(a.Email+" "+a.DisplayName)
	}
	for _, w := range strings.Fields(text) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func (s *Sandbox) getEvent(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calendar(r.PathValue("cal"))
	if c == nil {
		notFound(w)
		return
	}
	e := c.event(r.PathValue("id"))
	if e == nil {
		notFound(w)
		return
	}
	googleapi.WriteJSON(w, http.StatusOK, e)
}

func (s *Sandbox) insertEvent(w http.ResponseWriter, r *http.Request) {
	var e Event
	if !googleapi.DecodeJSON(w, r, &e) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calendar(r.PathValue("cal"))
	if c == nil {
		notFound(w)
		return
	}
	if msg := checkTimes(&e); msg != "" {
		googleapi.WriteError(w, http.StatusBadRequest, msg)
		return
	}
	s.nextID++
	e.ID = fmt.Sprintf("ldgn%06d", s.nextID)
	s.complete(c, &e, r.URL.Query().Get("conferenceDataVersion") == "1")
	c.events = append(c.events, &e)
	googleapi.WriteJSON(w, http.StatusOK, e)
}

func (s *Sandbox) patchEvent(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var patch map[string]json.RawMessage
	if err != nil || json.Unmarshal(body, &patch) != nil {
		googleapi.WriteError(w, http.StatusBadRequest, "Invalid JSON payload received.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calendar(r.PathValue("cal"))
	if c == nil {
		notFound(w)
		return
	}
	e := c.event(r.PathValue("id"))
	if e == nil {
		notFound(w)
		return
	}
	if e.Status == "cancelled" {
		googleapi.WriteError(w, http.StatusGone, "Resource has been deleted")
		return
	}
	cur, _ := json.Marshal(e)
	var merged map[string]json.RawMessage
	json.Unmarshal(cur, &merged)
	for k, v := range patch {
		merged[k] = v
	}
	b, _ := json.Marshal(merged)
	var next Event
	if err := json.Unmarshal(b, &next); err != nil {
		googleapi.WriteError(w, http.StatusBadRequest, "Invalid JSON payload received. "+err.Error())
		return
	}
	if msg := checkTimes(&next); msg != "" {
		googleapi.WriteError(w, http.StatusBadRequest, msg)
		return
	}
	next.ID, next.Sequence = e.ID, e.Sequence+1
	s.complete(c, &next, false)
	*e = next
	googleapi.WriteJSON(w, http.StatusOK, e)
}

func (s *Sandbox) deleteEvent(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calendar(r.PathValue("cal"))
	if c == nil {
		notFound(w)
		return
	}
	e := c.event(r.PathValue("id"))
	switch {
	case e == nil:
		notFound(w)
	case e.Status == "cancelled":
		googleapi.WriteError(w, http.StatusGone, "Resource has been deleted")
	default:
		e.Status = "cancelled"
		e.Updated = s.now().UTC().Format(time.RFC3339Nano)
		w.WriteHeader(http.StatusNoContent)
	}
}

// checkTimes validates start and end as the API does.
func checkTimes(e *Event) string {
	if e.Start == nil || (e.Start.Date == "" && e.Start.DateTime == "") {
		return "Missing start time."
	}
	if e.End == nil || (e.End.Date == "" && e.End.DateTime == "") {
		return "Missing end time."
	}
	start, end := span(e)
	if start.IsZero() || end.IsZero() {
		return "Invalid start or end time."
	}
	if !end.After(start) {
		return "The specified time range is empty."
	}
	return ""
}

// complete fills the fields Google sets on a written event.
func (s *Sandbox) complete(c *calendar, e *Event, conference bool) {
	now := s.now().UTC().Format(time.RFC3339Nano)
	e.Kind, e.EventType = "calendar#event", "default"
	if e.Status == "" {
		e.Status = "confirmed"
	}
	if e.Created == "" {
		e.Created = now
	}
	e.Updated = now
	e.HTMLLink = "https://www.google.com/calendar/event?eid=" + e.ID
	e.ICalUID = e.ID + "@google.com"
	e.Creator = &Person{Email: c.id, Self: true}
	e.Organizer = &Person{Email: c.id, Self: true}
	for i := range e.Attendees {
		if e.Attendees[i].ResponseStatus == "" {
			e.Attendees[i].ResponseStatus = "needsAction"
		}
	}
	if conference && e.ConferenceData != nil && e.ConferenceData.CreateRequest != nil {
		code := fmt.Sprintf("ldg-%04d-xyz", len(e.ID)*97%10000)
		e.ConferenceData.CreateRequest.Status = map[string]string{"statusCode": "success"}
		e.ConferenceData.ConferenceID = code
		e.ConferenceData.EntryPoints = []EntryPoint{{EntryPointType: "video", URI: "https://meet.google.com/" + code, Label: "meet.google.com/" + code}}
		e.HangoutLink = "https://meet.google.com/" + code
	}
}
