package gcalendar

import (
	"net/http"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

func (s *Sandbox) freeBusy(w http.ResponseWriter, r *http.Request) {
	var req freeBusyRequest
	if !googleapi.DecodeJSON(w, r, &req) {
		return
	}
	tmin, err1 := time.Parse(time.RFC3339, req.TimeMin)
	tmax, err2 := time.Parse(time.RFC3339, req.TimeMax)
	if err1 != nil || err2 != nil {
		googleapi.WriteError(w, http.StatusBadRequest, "Bad Request")
		return
	}
	if !tmax.After(tmin) {
		googleapi.WriteError(w, http.StatusBadRequest, "The specified time range is empty.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := freeBusyResponse{Kind: "calendar#freeBusy", TimeMin: tmin.UTC().Format(time.RFC3339), TimeMax: tmax.UTC().Format(time.RFC3339),
		Calendars: map[string]freeBusyCalendar{}}
	for _, it := range req.Items {
		c := s.calendar(it.ID)
		if c == nil {
			resp.Calendars[it.ID] = freeBusyCalendar{Busy: []Interval{}, Errors: []CalendarError{{Domain: "global", Reason: "notFound"}}}
			continue
		}
		resp.Calendars[it.ID] = freeBusyCalendar{Busy: busy(c.events, tmin, tmax)}
	}
	googleapi.WriteJSON(w, http.StatusOK, resp)
}

// busy returns the merged intervals of opaque, confirmed events within [tmin, tmax).
func busy(events []*Event, tmin, tmax time.Time) []Interval {
	type iv struct{ s, e time.Time }
	var ivs []iv
	for _, ev := range events {
		if ev.Status == "cancelled" || ev.Transparency == "transparent" {
			continue
		}
		s, e := span(ev)
		if !e.After(tmin) || !s.Before(tmax) {
			continue
		}
		ivs = append(ivs, iv{maxTime(s, tmin), minTime(e, tmax)})
	}
	slices.SortFunc(ivs, func(a, b iv) int { return a.s.Compare(b.s) })
	var merged []iv
	for _, v := range ivs {
		if n := len(merged); n > 0 && !v.s.After(merged[n-1].e) {
			merged[n-1].e = maxTime(merged[n-1].e, v.e)
			continue
		}
		merged = append(merged, v)
	}
	out := []Interval{}
	for _, v := range merged {
		out = append(out, Interval{Start: v.s.UTC().Format(time.RFC3339), End: v.e.UTC().Format(time.RFC3339)})
	}
	return out
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
