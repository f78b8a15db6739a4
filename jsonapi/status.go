// Package jsonapi is the gateway's JSON wire format: the one mapping from an
// error code to an HTTP status and error body, strict request decoding, and
// response encoding.
package jsonapi

import (
	"net/http"

	"github.com/gtmgate/gtmgate"
)

// statuses maps every error code to its HTTP status. It is the only place
// that does.
var statuses = map[string]int{
	gtmgate.EValidation:       http.StatusBadRequest,
	gtmgate.EUnauthorized:     http.StatusUnauthorized,
	gtmgate.EForbidden:        http.StatusForbidden,
	gtmgate.ETenantNotFound:   http.StatusNotFound,
	gtmgate.EToolNotFound:     http.StatusNotFound,
	gtmgate.ENotFound:         http.StatusNotFound,
	gtmgate.EConflict:         http.StatusConflict,
	gtmgate.EApprovalRequired: http.StatusAccepted,
	gtmgate.ERateLimited:      http.StatusTooManyRequests,
	gtmgate.EQuotaExceeded:    http.StatusTooManyRequests,
	gtmgate.EPayloadTooLarge:  http.StatusRequestEntityTooLarge,
	gtmgate.EUpstream:         http.StatusBadGateway,
	gtmgate.EUpstreamTimeout:  http.StatusGatewayTimeout,
	gtmgate.EReauthRequired:   http.StatusFailedDependency,
	gtmgate.EUnavailable:      http.StatusServiceUnavailable,
	gtmgate.EInternal:         http.StatusInternalServerError,
	gtmgate.EClientClosed:     499, // nginx's "client closed request"
}

// Status returns the HTTP status of an error code (500 for unknown codes).
func Status(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Codes lists every error code with its status, for documentation.
func Codes() map[string]int {
	out := make(map[string]int, len(statuses))
	for k, v := range statuses {
		out[k] = v
	}
	return out
}
