package gtmgate

import (
	"errors"
	"fmt"
)

// Error codes. Each maps to one HTTP status in exactly one place (see jsonapi).
const (
	EValidation       = "VALIDATION_ERROR"
	EUnauthorized     = "UNAUTHORIZED"
	EForbidden        = "FORBIDDEN"
	ETenantNotFound   = "TENANT_NOT_FOUND"
	EToolNotFound     = "TOOL_NOT_FOUND"
	ENotFound         = "NOT_FOUND"
	EConflict         = "CONFLICT"
	EApprovalRequired = "APPROVAL_REQUIRED"
	ERateLimited      = "RATE_LIMITED"
	EQuotaExceeded    = "QUOTA_EXCEEDED"
	EPayloadTooLarge  = "PAYLOAD_TOO_LARGE"
	EUpstream         = "UPSTREAM_ERROR"
	EUpstreamTimeout  = "UPSTREAM_TIMEOUT"
	EReauthRequired   = "REAUTH_REQUIRED"
	EUnavailable      = "UNAVAILABLE"
	EInternal         = "INTERNAL"
	// EClientClosed records a call whose client went away before it
	// finished. It is in the audit log and the error ledger; no one is left
	// to receive it as an answer.
	EClientClosed = "CLIENT_CLOSED"
)

// Sentinel errors returned by stores. Callers translate them into coded errors.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	// ErrStoreUnavailable marks a store failure that is not about the data
	// (unreachable, timed out, disk full); it comes as UNAVAILABLE.
	ErrStoreUnavailable = errors.New("store unavailable")
	// ErrInvalidCursor marks a paging cursor that no listing returned.
	ErrInvalidCursor = errors.New("invalid cursor")
	// ErrShuttingDown is the cause of a request cancelled because the
	// process is stopping.
	ErrShuttingDown = errors.New("the gateway is shutting down")
)

// Error is the application error: a code, a message safe to show the caller, an
// optional hint on how to fix the request, and optional structured detail.
type Error struct {
	Code    string
	Message string
	Hint    string
	// Field is the JSON path of the request body's field at fault, such as
	// "providers.google_ads.accounts[1].id" or "currency"; "" when the
	// error is not about one field. Forms show the message beside it.
	Field string
	// Detail is rendered as "error_detail" (for example an UpstreamDetail).
	Detail any
	// ApprovalID is set on APPROVAL_REQUIRED.
	ApprovalID string
	// RetryAfter, in seconds, is set on RATE_LIMITED when known.
	RetryAfter int
	// Err is the underlying cause; it is logged, never shown.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithHint returns e with its hint set.
func (e *Error) WithHint(hint string) *Error { e.Hint = hint; return e }

// AtField returns e with the JSON path of the field at fault set.
func (e *Error) AtField(path string) *Error { e.Field = path; return e }

// ErrorCode returns the code of err, EInternal for errors that are not *Error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return EInternal
}

// AsError returns err as an *Error; unknown errors become an internal error
// whose message hides the cause.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: EInternal, Message: "internal error", Err: err}
}

// UpstreamDetail is the error_detail of UPSTREAM_ERROR and UPSTREAM_TIMEOUT.
type UpstreamDetail struct {
	Provider string `json:"provider"`
	Status   int    `json:"status,omitempty"`
	// Body is an excerpt of the provider's response body with secrets removed.
	Body string `json:"body,omitempty"`
}
