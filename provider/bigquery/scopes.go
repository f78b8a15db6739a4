package bigquery

import (
	"github.com/gtmgate/gtmgate/provider/apispec"
)

// Spec returns the facts of the BigQuery API the tools call (apispec.json,
// the file the sandbox enforces), each operation with the OAuth scopes that
// admit it; a token's scopes are read with googleapi.GrantedScopes. It is
// parsed once and shared: callers must not change it.
func Spec() *apispec.Spec { return parsedSpec() }

// parsedSpec parses specFile on first use; the sandbox's enforcer reads
// the same copy.
var parsedSpec = apispec.ParseOnce(specFile)
