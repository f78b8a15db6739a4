package modelgw

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// ErrTimeout marks a call that ran out of time, per attempt or overall. Such
// errors also match context.DeadlineExceeded.
var ErrTimeout = errors.New("model gateway timed out")

// ErrNoToolCall is returned by CallTool when the model answered without calling the tool.
var ErrNoToolCall = errors.New("model returned no tool call")

// ErrToolArguments is returned by CallTool when the tool call's arguments do not decode.
var ErrToolArguments = errors.New("tool call arguments do not decode")

// APIError is a non-2xx answer of the model gateway, parsed from the OpenAI
// error shape {"error":{"message","type","param","code"}}.
type APIError struct {
	Status  int
	Type    string
	Code    string
	Param   string
	Message string
	// RetryAfter is the upstream's Retry-After header, verbatim, when sent.
	RetryAfter string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model gateway status %d", e.Status)
	if e.Type != "" || e.Code != "" {
		fmt.Fprintf(&b, " (%s", e.Type)
		if e.Code != "" {
			if e.Type != "" {
				b.WriteString(", ")
			}
			b.WriteString(e.Code)
		}
		b.WriteString(")")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Temporary reports whether retrying the same request may succeed (429 or 5xx).
func (e *APIError) Temporary() bool { return retryableStatus(e.Status) }

func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// maxMessageBytes bounds the message taken from a body that is not the OpenAI shape.
const maxMessageBytes = 300

// parseAPIError builds an APIError from a failed response's status, headers and body.
func parseAPIError(status int, h http.Header, body []byte) *APIError {
	e := &APIError{Status: status, RetryAfter: h.Get("Retry-After")}
	var v struct {
		Error *struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Param   json.RawMessage `json:"param"`
			Code    json.RawMessage `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && v.Error != nil {
		e.Message, e.Type = v.Error.Message, v.Error.Type
		e.Code, e.Param = rawString(v.Error.Code), rawString(v.Error.Param)
		return e
	}
	e.Message = excerpt(bytes.TrimSpace(body))
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// rawString renders a JSON string, number or null as plain text ("" for null).
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := string(bytes.TrimSpace(raw)); t != "null" {
		return t
	}
	return ""
}

func excerpt(b []byte) string {
	if len(b) <= maxMessageBytes {
		return string(b)
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}
