package googleapi

import (
	"net/http"

	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Enforce puts next behind the checks of a Google API's spec file (see
// apispec): a request the discovery document does not allow gets Google's
// error body, 400 INVALID_ARGUMENT or 404 NOT_FOUND.
func Enforce(specFile []byte, next http.Handler) *apispec.Enforcer {
	return apispec.Enforce(apispec.MustParse(specFile), next, WriteError)
}
