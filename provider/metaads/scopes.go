package metaads

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Spec returns the facts of the Marketing API calls the tools make
// (apispec.json, the file the sandbox enforces), each operation with the
// permissions (OAuth scopes) that admit it. It is the sandbox's own parse,
// shared: callers must not change it.
func Spec() *apispec.Spec { return graphSpec }

// permission is one entry of GET /me/permissions
// (developers.facebook.com/docs/graph-api/reference/user/permissions/).
type permission struct {
	Permission string `json:"permission"`
	// Status is granted, declined or expired.
	Status string `json:"status"`
}

// GrantedScopes returns the permissions the account's token holds, as
// Graph lists them at /{version}/me/permissions with status "granted". It
// calls through c, the adapter's client, so the token travels in the
// Authorization header and is refreshed once if Meta refuses it.
func GrantedScopes(ctx context.Context, c *upstream.Client, ts gtmgate.TokenSource) ([]string, error) {
	a := &api{c: c}
	req := &upstream.Request{Method: http.MethodGet, Path: "/" + a.version() + "/me/permissions", Token: ts}
	var out struct {
		Data []permission `json:"data"`
	}
	if err := c.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("meta ads: GET me/permissions: %w", a.graphError(err))
	}
	var granted []string
	for _, p := range out.Data {
		if p.Status == "granted" {
			granted = append(granted, p.Permission)
		}
	}
	return granted, nil
}
