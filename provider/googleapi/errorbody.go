package googleapi

import (
	"net/http"
)

// ErrorBody is Google's JSON error response, shared by the Data, Search
// Console, Gmail, Calendar, BigQuery and Sheets APIs (the google.rpc.Status
// of Google Ads has the same envelope).
type ErrorBody struct {
	Error ErrorStatus `json:"error"`
}

// ErrorStatus is the "error" object of an ErrorBody.
type ErrorStatus struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Status  string      `json:"status"`
	Errors  []ErrorItem `json:"errors,omitempty"`
	// Details are google.rpc error details (ErrorInfo, RetryInfo…), by @type.
	Details []ErrorDetail `json:"details,omitempty"`
}

// ErrorDetail is one google.rpc error detail, with the fields of the types
// read here (google/rpc/error_details.proto): ErrorInfo's reason, domain and
// metadata, RetryInfo's retryDelay.
type ErrorDetail struct {
	Type       string            `json:"@type"`
	Reason     string            `json:"reason,omitempty"`
	Domain     string            `json:"domain,omitempty"`
	Metadata   map[string]string `json:"metadata,omitempty"`
	RetryDelay string            `json:"retryDelay,omitempty"`
}

// ErrorItem is one entry of the legacy "errors" list.
type ErrorItem struct {
	Message      string `json:"message"`
	Domain       string `json:"domain"`
	Reason       string `json:"reason"`
	Location     string `json:"location,omitempty"`
	LocationType string `json:"locationType,omitempty"`
}

// statusNames are the canonical google.rpc.Code names by HTTP status.
var statusNames = map[int]struct{ status, reason string }{
	http.StatusBadRequest:          {"INVALID_ARGUMENT", "badRequest"},
	http.StatusUnauthorized:        {"UNAUTHENTICATED", "authError"},
	http.StatusForbidden:           {"PERMISSION_DENIED", "forbidden"},
	http.StatusNotFound:            {"NOT_FOUND", "notFound"},
	http.StatusConflict:            {"ALREADY_EXISTS", "duplicate"},
	http.StatusGone:                {"NOT_FOUND", "deleted"},
	http.StatusTooManyRequests:     {"RESOURCE_EXHAUSTED", "rateLimitExceeded"},
	http.StatusInternalServerError: {"INTERNAL", "backendError"},
	http.StatusServiceUnavailable:  {"UNAVAILABLE", "backendError"},
}

// NewError returns Google's error body for an HTTP status and message.
func NewError(code int, message string) ErrorBody {
	n, ok := statusNames[code]
	if !ok {
		n.status, n.reason = "UNKNOWN", "unknown"
	}
	return ErrorBody{Error: ErrorStatus{Code: code, Message: message, Status: n.status,
		Errors: []ErrorItem{{Message: message, Domain: "global", Reason: n.reason}}}}
}

// WriteError writes Google's error body with the given status.
func WriteError(w http.ResponseWriter, code int, message string) {
	WriteJSON(w, code, NewError(code, message))
}

// Messages Google sends for common failures; sandboxes reuse them verbatim.
const (
	MsgUnauthenticated = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
	MsgMissingAuth     = "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
	MsgRateLimited     = "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service."
	MsgBackend         = "Internal error encountered."
	MsgUnavailable     = "The service is currently unavailable."
)

// Fault is an error a sandbox answers as Google does: the HTTP status, the
// reason and domain of its errors entry, and its message (the status's
// defaults when empty).
type Fault struct {
	Status                  int
	Reason, Domain, Message string
}

// Google's usage-limit and permission errors as its reference pages show
// them (see Classify for the pages): HTTP 403, domain usageLimits, and these
// reasons and messages.
var (
	FaultUserRateLimit = Fault{Status: http.StatusForbidden, Reason: "userRateLimitExceeded", Domain: "usageLimits", Message: "User Rate Limit Exceeded"}
	FaultRateLimit     = Fault{Status: http.StatusForbidden, Reason: "rateLimitExceeded", Domain: "usageLimits", Message: "Rate Limit Exceeded"}
	FaultDailyLimit    = Fault{Status: http.StatusForbidden, Reason: "dailyLimitExceeded", Domain: "usageLimits", Message: "Daily Limit Exceeded"}
	// FaultCalendarUsageLimits is Calendar's quotaExceeded, a limit on one
	// user's calendar that lasts hours.
	FaultCalendarUsageLimits = Fault{Status: http.StatusForbidden, Reason: "quotaExceeded", Domain: "usageLimits", Message: "Calendar usage limits exceeded."}
	// FaultInsufficientPermissions is the 403 of a token without the scope
	// the call needs: a credential refusal.
	FaultInsufficientPermissions = Fault{Status: http.StatusForbidden, Reason: "insufficientPermissions", Domain: "global",
		Message: "Request had insufficient authentication scopes."}
)

// Body returns Google's error body for f.
func (f Fault) Body() ErrorBody {
	if f.Message == "" {
		f.Message = faultMessage(f.Status)
	}
	b := NewError(f.Status, f.Message)
	if f.Reason != "" {
		b.Error.Errors = []ErrorItem{{Message: f.Message, Domain: f.Domain, Reason: f.Reason}}
	}
	return b
}

// WriteFault writes f as Google does.
func WriteFault(w http.ResponseWriter, f Fault) { WriteJSON(w, f.Status, f.Body()) }
