package federation

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/gtmgate/gtmgate"
)

// Probe lists the tools of s, a configuration that need not be stored (a
// connection test before saving), and shows them as the catalogue would
// serve them under s's allow-list and overrides. Nothing is stored and the
// catalogue is unchanged. The listing runs on a session of its own, never
// on the one the stored server's calls use (a different secret or URL must
// not replace it), and that session is closed before Probe returns.
func (c *Catalog) Probe(ctx context.Context, s *gtmgate.MCPServer) ([]ToolView, error) {
	var nonce [6]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, fmt.Errorf("federation: probe key: %w", err)
	}
	probe := *s
	// The upstream client keys sessions by tenant and server name; a tenant
	// id never holds "/", so this key is no real server's.
	probe.TenantID = s.TenantID + "/test-connection/" + hex.EncodeToString(nonce[:])
	defer c.opts.Upstream.Forget(probe.TenantID, probe.Name)
	tools, err := c.opts.Upstream.ListTools(ctx, &probe)
	if err != nil {
		return nil, err
	}
	if err := checkListing(s.Name, tools); err != nil {
		return nil, err // the bounds a refresh would refuse it by (bounds.go)
	}
	listed := *s
	if listed.State.Tools, err = json.Marshal(tools); err != nil {
		return nil, fmt.Errorf("federation: encode %s's tool list: %w", s.Name, err)
	}
	sv := c.build(&listed)
	if sv.tools == nil {
		return []ToolView{}, nil
	}
	return sv.tools, nil
}
