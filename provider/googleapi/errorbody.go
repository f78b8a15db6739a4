package googleapi

import (
	"net/http"
)

// ErrorBody is Google's JSON error response, shared by the Data, Search
// Console, Gmail and Calendar APIs.
type ErrorBody struct {
	Error ErrorStatus `json:"error"`
}

// ErrorStatus is the "error" object of an ErrorBody.
type ErrorStatus struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Status  string      `json:"status"`
	Errors  []ErrorItem `json:"errors,omitempty"`
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
