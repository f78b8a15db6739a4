// Package gcalendar adapts the Google Calendar API v3 as the tools of the
// "calendar" domain: calendar_events (list, get, create, update, delete) and
// calendar_freebusy. Every action is category calendar_op; create, update and
// delete are mutating, delete is also destructive. The account id is the
// calendar id: "primary" or the calendar's email address.
//
// Results keep the API's Event fields (id, status, htmlLink, summary,
// description, location, start/end as {dateTime, timeZone} or all-day
// {date}, attendees, organizer, hangoutLink, conferenceData…), times in
// RFC 3339; lists are {"items": [...], "next_cursor"}. All-day events end on
// the day after their last day (exclusive), as in the API.
package gcalendar

import (
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Google Calendar accounts and tokens.
const Provider = "google_calendar"

// DefaultBaseURL is the Calendar API root.
const DefaultBaseURL = "https://www.googleapis.com"

// Options returns the upstream client options for the Calendar at baseURL:
// OAuth bearer token, and Google's usage limits (sent as 403 as well as 429)
// read as RATE_LIMITED rather than a refused token.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Classify: googleapi.Classify}
}

// Tools returns the Calendar tools calling the API through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	return []gtmgate.Tool{eventsTool(c), freeBusyTool(c)}
}

// calendarPath returns "/calendar/{version}/calendars/{calendarId}" for the account.
func calendarPath(version string, acct gtmgate.Account) (string, error) {
	if err := validCalendarID(acct.ID); err != nil {
		return "", err
	}
	return "/calendar/" + version + "/calendars/" + url.PathEscape(acct.ID), nil
}

func validCalendarID(id string) error {
	if id == "" || len(id) > 255 || strings.ContainsFunc(id, func(r rune) bool { return r < 0x21 || r == 0x7f || r == '/' }) ||
		(id != "primary" && !strings.Contains(id, "@")) {
		return gtmgate.Errorf(gtmgate.EValidation, "google_calendar: %q is not a calendar id", id).
			WithHint(`use "primary" or the calendar's email address`)
	}
	return nil
}

// validEventID checks an event id: base32hex for events created through the
// API, letters, digits and "_" for recurring instances ("id_20250101T100000Z").
// Anything else could change the request path.
func validEventID(id string) error {
	if len(id) < 1 || len(id) > 1024 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
		return gtmgate.Errorf(gtmgate.EValidation, "google_calendar: event_id %q is not a Calendar event id", id)
	}
	return nil
}
