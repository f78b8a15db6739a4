package gcalendar

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

type freeBusyInput struct {
	TimeMin   string   `json:"time_min"`
	TimeMax   string   `json:"time_max"`
	Calendars []string `json:"calendars"`
	TimeZone  string   `json:"time_zone"`
}

// CalendarBusy is one calendar's busy intervals in a free/busy result.
type CalendarBusy struct {
	ID     string          `json:"id"`
	Busy   []Interval      `json:"busy"`
	Errors []CalendarError `json:"errors,omitempty"`
}

// FreeBusy is the result of calendar_freebusy.
type FreeBusy struct {
	TimeMin   string         `json:"time_min"`
	TimeMax   string         `json:"time_max"`
	Calendars []CalendarBusy `json:"calendars"`
}

func freeBusyTool(c *upstream.Client) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "calendar_freebusy", Domain: "calendar", Provider: Provider, Title: "Google Calendar free/busy",
		Description: "Busy intervals of calendars (the account's or colleagues' by email) between time_min and time_max, to find a meeting slot.",
		Actions: []gtmgate.Action{{Name: "query", Description: "busy intervals per calendar", Category: gtmgate.CategoryCalendarOp,
			Required: []string{"time_min", "time_max"}}},
		Properties: map[string]*jsonschema.Schema{
			"time_min": {Type: "string", Format: "date-time"},
			"time_max": {Type: "string", Format: "date-time"},
			"calendars": {Type: "array", MaxItems: jsonschema.Ptr(50),
				Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(255)}},
			"time_zone": {Type: "string"},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in freeBusyInput
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			tmin, err1 := time.Parse(time.RFC3339, in.TimeMin)
			tmax, err2 := time.Parse(time.RFC3339, in.TimeMax)
			if err1 != nil || err2 != nil || !tmax.After(tmin) {
				return nil, gtmgate.Errorf(gtmgate.EValidation, "calendar_freebusy: time_min and time_max must be RFC 3339 times, time_max after time_min")
			}
			ids := in.Calendars
			if len(ids) == 0 {
				ids = []string{call.Account.ID}
			}
			req := freeBusyRequest{TimeMin: in.TimeMin, TimeMax: in.TimeMax, TimeZone: in.TimeZone}
			for _, id := range ids {
				if err := validCalendarID(id); err != nil {
					return nil, err
				}
				req.Items = append(req.Items, freeBusyItem{ID: id})
			}
			var resp freeBusyResponse
			if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: "/calendar/" + c.APIVersion() + "/freeBusy", JSON: req, Token: call.Token}, &resp); err != nil {
				return nil, fmt.Errorf("google_calendar: free/busy: %w", err)
			}
			out := FreeBusy{TimeMin: resp.TimeMin, TimeMax: resp.TimeMax, Calendars: []CalendarBusy{}}
			for id, cal := range resp.Calendars {
				if cal.Busy == nil {
					cal.Busy = []Interval{}
				}
				out.Calendars = append(out.Calendars, CalendarBusy{ID: id, Busy: cal.Busy, Errors: cal.Errors})
			}
			sort.Slice(out.Calendars, func(i, j int) bool { return out.Calendars[i].ID < out.Calendars[j].ID })
			return out, nil
		},
	}
}
