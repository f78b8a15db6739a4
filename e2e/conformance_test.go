package e2e

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// gatewayScenarios are the conformance suite's generic server scenarios that
// apply to the gateway's /mcp (it offers tools, not resources or prompts).
var gatewayScenarios = []string{
	"server-initialize", "ping", "tools-list", "dns-rebinding-protection",
	"server-sse-polling", "server-sse-multiple-streams",
}

// TestGatewayMCPConformance runs the official conformance suite against the
// real binary's /mcp. The suite cannot send credentials, so a loopback proxy
// adds the demo tenant's bearer token and changes nothing else (Host and
// Origin pass through, so DNS-rebinding protection is still the server's).
func TestGatewayMCPConformance(t *testing.T) {
	nodetools.Node(t)
	p := start(t, t.TempDir())
	target, _ := url.Parse(p.gateway)
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(target)
		pr.Out.Host = pr.In.Host
		pr.Out.Header.Set("Authorization", "Bearer "+p.demoToken)
	}})
	defer proxy.Close()
	nodetools.Conformance(t, proxy.URL+"/mcp", gatewayScenarios...)
}
