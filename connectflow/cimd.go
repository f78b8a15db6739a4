package connectflow

import (
	"encoding/json"
	"net/http"

	"github.com/gtmgate/gtmgate/mcpoauth"
)

// clientMetadata serves the gateway's client ID metadata document
// (mcpoauth/cimd.go): an upstream MCP server's authorization server that
// accepts one fetches it, with gtmgate's client_id as its URL.
func (f *Flow) clientMetadata(w http.ResponseWriter, _ *http.Request) {
	doc := mcpoauth.NewClientMetadata(f.opts.GatewayURL, f.redirectURI, f.clientName())
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_ = json.NewEncoder(w).Encode(doc)
}

// clientName is how gtmgate names itself to an upstream's authorization
// server (its consent page shows it): the operator, by gtmgate.
func (f *Flow) clientName() string {
	if n := f.opts.OperatorName; n != "" && n != "gtmgate" {
		return n + " (gtmgate)"
	}
	return "gtmgate"
}
