package linkedinads

import (
	_ "embed"
	"net/http"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// specFile is the facts of the LinkedIn Marketing API (version 202606) calls
// the adapter makes. LinkedIn publishes no machine-readable description:
// they are transcribed from its reference pages on learn.microsoft.com, each
// operation citing its page. Rest.li 2.0 query values are structured
// (List(…), (key:value)), so the facts check parameter names and the enums
// of simple values; the sandbox decodes the structured ones.
//
//go:embed apispec.json
var specFile []byte

// liSpec parses specFile on first use (a process that runs no sandbox and
// calls no Spec never does); enforcers share it read-only.
var liSpec = apispec.ParseOnce(specFile)

// enforce puts next behind the spec's checks.
func enforce(next http.Handler) *apispec.Enforcer {
	return apispec.Enforce(liSpec(), next, refuseLinkedIn)
}

// refuseLinkedIn answers a request the spec does not allow with LinkedIn's
// error body: a parameter as the versioned APIs report one (400
// PARAM_INVALID, the problem in errorDetails.inputErrors), a path no
// operation serves as 404 NOT_FOUND, a method it does not take as 405.
func refuseLinkedIn(w http.ResponseWriter, status int, msg string) {
	switch status {
	case http.StatusNotFound:
		writeError(w, status, "NOT_FOUND", "No virtual resource found")
	case http.StatusMethodNotAllowed:
		writeError(w, status, "METHOD_NOT_ALLOWED", msg)
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"status": http.StatusBadRequest, "code": "PARAM_INVALID",
			"message":         "Invalid param. Please see errorDetails for more information.",
			"errorDetailType": "com.linkedin.common.error.BadRequest",
			"errorDetails":    map[string]any{"inputErrors": []any{map[string]any{"code": "PARAM_INVALID", "description": msg}}}})
	}
}
