package googleapi

import (
	"net/http"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Enforce puts next behind the checks of a Google API's parsed spec file
// (see apispec): a request the discovery document does not allow gets
// Google's error body, 400 INVALID_ARGUMENT or 404 NOT_FOUND. The spec is
// only read, so a provider passes the one it shares with its scope checks.
func Enforce(spec *apispec.Spec, next http.Handler) *apispec.Enforcer {
	return apispec.Enforce(spec, next, WriteError)
}
