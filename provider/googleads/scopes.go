package googleads

import "github.com/gtmgate/gtmgate/provider/apispec"

// Spec returns the facts of the Google Ads API the tools call (apispec.json,
// the file the sandbox enforces), each operation with the OAuth scopes that
// admit it. It is the sandbox's own parse, shared: callers must not change
// it. A Google Ads token's scopes are read with googleapi.GrantedScopes.
func Spec() *apispec.Spec { return adsSpec() }
