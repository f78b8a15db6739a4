package gcalendar

// The Calendar API v3 JSON shapes.

// Event is the API's Event resource (the fields the tools read and write).
type Event struct {
	Kind             string          `json:"kind,omitempty"`
	ID               string          `json:"id,omitempty"`
	Status           string          `json:"status,omitempty"`
	HTMLLink         string          `json:"htmlLink,omitempty"`
	Created          string          `json:"created,omitempty"`
	Updated          string          `json:"updated,omitempty"`
	Summary          string          `json:"summary,omitempty"`
	Description      string          `json:"description,omitempty"`
	Location         string          `json:"location,omitempty"`
	Creator          *Person         `json:"creator,omitempty"`
	Organizer        *Person         `json:"organizer,omitempty"`
	Start            *EventDateTime  `json:"start,omitempty"`
	End              *EventDateTime  `json:"end,omitempty"`
	RecurringEventID string          `json:"recurringEventId,omitempty"`
	Transparency     string          `json:"transparency,omitempty"`
	Visibility       string          `json:"visibility,omitempty"`
	ICalUID          string          `json:"iCalUID,omitempty"`
	Sequence         int             `json:"sequence,omitempty"`
	Attendees        []Attendee      `json:"attendees,omitempty"`
	HangoutLink      string          `json:"hangoutLink,omitempty"`
	ConferenceData   *ConferenceData `json:"conferenceData,omitempty"`
	EventType        string          `json:"eventType,omitempty"`
}

// EventDateTime is a timed ({dateTime, timeZone}) or all-day ({date}) instant.
type EventDateTime struct {
	Date     string `json:"date,omitempty"`
	DateTime string `json:"dateTime,omitempty"`
	TimeZone string `json:"timeZone,omitempty"`
}

// Person is an event's creator or organizer.
type Person struct {
	Email       string `json:"email,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
	Self        bool   `json:"self,omitempty"`
}

// Attendee is one guest; ResponseStatus is needsAction, declined, tentative or accepted.
type Attendee struct {
	Email          string `json:"email"`
	DisplayName    string `json:"displayName,omitempty"`
	ResponseStatus string `json:"responseStatus,omitempty"`
	Organizer      bool   `json:"organizer,omitempty"`
	Self           bool   `json:"self,omitempty"`
	Optional       bool   `json:"optional,omitempty"`
}

// ConferenceData asks for (createRequest) or describes a video conference.
type ConferenceData struct {
	CreateRequest *CreateConferenceRequest `json:"createRequest,omitempty"`
	EntryPoints   []EntryPoint             `json:"entryPoints,omitempty"`
	ConferenceID  string                   `json:"conferenceId,omitempty"`
}

// CreateConferenceRequest requests a Google Meet link.
type CreateConferenceRequest struct {
	RequestID             string            `json:"requestId"`
	ConferenceSolutionKey map[string]string `json:"conferenceSolutionKey,omitempty"`
	Status                map[string]string `json:"status,omitempty"`
}

// EntryPoint is one way to join a conference.
type EntryPoint struct {
	EntryPointType string `json:"entryPointType"`
	URI            string `json:"uri"`
	Label          string `json:"label,omitempty"`
}

type eventList struct {
	Kind          string  `json:"kind"`
	Summary       string  `json:"summary,omitempty"`
	TimeZone      string  `json:"timeZone,omitempty"`
	Items         []Event `json:"items"`
	NextPageToken string  `json:"nextPageToken,omitempty"`
}

type freeBusyRequest struct {
	TimeMin  string         `json:"timeMin"`
	TimeMax  string         `json:"timeMax"`
	TimeZone string         `json:"timeZone,omitempty"`
	Items    []freeBusyItem `json:"items"`
}

type freeBusyItem struct {
	ID string `json:"id"`
}

// Interval is a busy period.
type Interval struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// CalendarError is a per-calendar free/busy failure (reason notFound…).
type CalendarError struct {
	Domain string `json:"domain"`
	Reason string `json:"reason"`
}

type freeBusyCalendar struct {
	Busy   []Interval      `json:"busy"`
	Errors []CalendarError `json:"errors,omitempty"`
}

type freeBusyResponse struct {
	Kind      string                      `json:"kind"`
	TimeMin   string                      `json:"timeMin"`
	TimeMax   string                      `json:"timeMax"`
	Calendars map[string]freeBusyCalendar `json:"calendars"`
}
