package oauth

import (
	"encoding/json"
	"net/http"
)

// OAuth error codes (RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2, RFC 8707).
const (
	errInvalidRequest          = "invalid_request"
	errInvalidClient           = "invalid_client"
	errInvalidGrant            = "invalid_grant"
	errUnauthorizedClient      = "unauthorized_client"
	errUnsupportedGrantType    = "unsupported_grant_type"
	errUnsupportedResponseType = "unsupported_response_type"
	errInvalidScope            = "invalid_scope"
	errInvalidTarget           = "invalid_target"
	errAccessDenied            = "access_denied"
	errServerError             = "server_error"
	errInvalidRedirectURI      = "invalid_redirect_uri"
	errInvalidClientMetadata   = "invalid_client_metadata"
	errTemporarilyUnavailable  = "temporarily_unavailable"
)

// protocolError is an OAuth error response.
type protocolError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
	status      int
}

func (e *protocolError) Error() string { return e.Code + ": " + e.Description }

func oauthErr(status int, code, desc string) *protocolError {
	return &protocolError{Code: code, Description: desc, status: status}
}

// writeJSON writes a token-endpoint style JSON response, never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"server_error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	w.WriteHeader(status)
	w.Write(b)
}

// writeError writes e as the JSON error body of RFC 6749 §5.2.
func writeError(w http.ResponseWriter, e *protocolError) {
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="gtmgate"`)
	}
	writeJSON(w, e.status, e)
}
