package e2e

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// gatewayScenarios are the conformance suite's server scenarios that apply
// to the gateway's /mcp, each at the wire of every revision it serves and
// the scenario covers. /mcp is stateless and offers tools only: no
// prompts, resources, completions, logging or extensions, whose methods
// answer -32601.
//
// Left out, because they need what the gateway does not offer:
//   - the suite's test tools (test_simple_text, test_image_content,
//     test_error_handling, test_tool_with_progress, test_elicitation, …):
//     tools-call-*, json-schema-2020-12, elicitation-sep1034-defaults,
//     elicitation-sep1330-enums, and every input-required-result-* but
//     unsupported-methods (test_input_required_result_*; the gateway's own
//     input_required results, for held calls, are e2e/heldcall_test.go's);
//   - a tool with x-mcp-header parameters: http-custom-header-server-validation;
//   - prompts, resources, completions, logging: prompts-*, resources-*,
//     sep-2164-resource-not-found, completion-complete, logging-set-level;
//   - extensions it does not declare (tasks, skills): tasks-*, sep-2640-*.
//
// Against a stateless server the 2025-11-25 session scenarios
// (server-session-lifecycle, server-sse-polling, and
// server-sse-multiple-streams at that wire) check only that nothing fails;
// they would test more were /mcp ever to issue sessions.
var gatewayScenarios = []nodetools.Scenario{
	{Name: "server-initialize", Spec: "2025-11-25"},
	{Name: "server-session-lifecycle", Spec: "2025-11-25"},
	{Name: "ping", Spec: "2025-11-25"},
	{Name: "tools-list", Spec: "2025-11-25"},
	{Name: "tools-list", Spec: "2026-07-28"},
	{Name: "dns-rebinding-protection", Spec: "2025-11-25"},
	{Name: "dns-rebinding-protection", Spec: "2026-07-28"},
	{Name: "server-sse-polling", Spec: "2025-11-25"},
	{Name: "server-sse-multiple-streams", Spec: "2025-11-25"},
	{Name: "server-sse-multiple-streams", Spec: "2026-07-28"},
	{Name: "server-stateless", Spec: "2026-07-28", Excused: []string{
		// Need the suite's test tools test_missing_capability,
		// test_streaming_elicitation and test_logging_tool.
		"sep-2575-server-rejects-undeclared-capability",
		"sep-2575-missing-capability-http-400",
		"sep-2575-http-server-no-independent-requests-on-stream",
		"sep-2575-server-no-log-without-loglevel",
	}},
	{Name: "caching", Spec: "2026-07-28", Excused: []string{
		// The suite asks every server for its prompts and resources; /mcp
		// has none and answers -32601, as server-stateless requires of a
		// server that does not declare them.
		"sep-2549-prompts-list-caching-hints",
		"sep-2549-resources-list-caching-hints",
		"sep-2549-resources-templates-list-caching-hints",
	}},
	{Name: "http-header-validation", Spec: "2026-07-28"},
	{Name: "input-required-result-unsupported-methods", Spec: "2026-07-28"},
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
	nodetools.ConformanceScenarios(t, proxy.URL+"/mcp", gatewayScenarios...)
}
