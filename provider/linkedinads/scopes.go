package linkedinads

import "github.com/gtmgate/gtmgate/provider/apispec"

// Spec returns the facts of the LinkedIn Marketing API the tools call
// (apispec.json, the file the sandbox enforces), each operation with the
// OAuth scopes that admit it. It is the sandbox's own parse, shared: callers
// must not change it.
//
// The package has no GrantedScopes: LinkedIn reports a token's scopes only
// through token introspection, which takes the app's client credentials.
func Spec() *apispec.Spec { return liSpec() }
