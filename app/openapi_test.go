package app_test

import (
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/gateway"
)

var pathParam = regexp.MustCompile(`\{[a-z_]+\}`)

// TestOpenAPIMatchesGatewayRoutes walks the gateway's muxes both ways: every
// registered route is described, and every described operation lands on a
// registered route (not the not-found fallback) with the same path.
func TestOpenAPIMatchesGatewayRoutes(t *testing.T) {
	e := apptest.Start(t, nil)
	gw := e.App.Handler(app.SurfaceGateway).(*gateway.Server)
	r := e.Do("GET", e.GatewayURL+"/openapi.json", nil)
	if r.Status != 200 {
		t.Fatalf("GET /openapi.json: %d %s", r.Status, r.Body)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	patterns := gw.Patterns()
	for _, want := range []string{"POST /api/v1/{tenant}/{domain}", "GET /admin/tenants", "POST /admin/seed-oauth", "/mcp", "POST /oauth/token"} {
		if !slices.Contains(patterns, want) {
			t.Errorf("Patterns() lacks %q: %v", want, patterns)
		}
	}
	for _, p := range patterns {
		method, path, ok := strings.Cut(p, " ")
		if !ok {
			method, path = "", p
		}
		ops := doc.Paths[path]
		if len(ops) == 0 || (method != "" && ops[strings.ToLower(method)] == nil) {
			t.Errorf("registered route %q is not in the document", p)
		}
	}
	described := 0
	for path, ops := range doc.Paths {
		concrete := pathParam.ReplaceAllStringFunc(path, func(p string) string {
			if p == "{domain}" {
				return "crm"
			}
			return "x1"
		})
		for method := range ops {
			described++
			req := httptest.NewRequest(strings.ToUpper(method), concrete, nil)
			got := gw.Route(req)
			if got == "" {
				t.Errorf("%s %s is described but no route serves it", strings.ToUpper(method), path)
				continue
			}
			if !slices.Contains(patterns, got) {
				t.Errorf("%s %s lands on %q, which Patterns() does not list", strings.ToUpper(method), path, got)
			}
			if _, routePath, ok := strings.Cut(got, " "); (ok && routePath != path) || (!ok && got != path) {
				t.Errorf("%s %s lands on %q, a different path", strings.ToUpper(method), path, got)
			}
		}
	}
	if described < len(patterns) {
		t.Errorf("%d operations described for %d routes", described, len(patterns))
	}
	// A route nobody described must not pass: the fallback is not a route.
	if got := gw.Route(httptest.NewRequest("GET", "/no/such/route", nil)); got != "" {
		t.Errorf("Route(/no/such/route) = %q, want the fallback", got)
	}
	if got := gw.Route(httptest.NewRequest("GET", "/admin/nothing", nil)); got != "" {
		t.Errorf("Route(/admin/nothing) = %q, want the fallback", got)
	}
}

// The docs host publishes the gateway's description, pointed at the gateway.
func TestDocsHostPublishesTheGatewayDescription(t *testing.T) {
	e := apptest.Start(t, nil)
	var gw, docs struct {
		Servers []struct{ URL string }
		Paths   map[string]any
	}
	for _, c := range []struct {
		url string
		v   any
	}{{e.GatewayURL + "/openapi.json", &gw}, {e.DocsURL + "/openapi.json", &docs}} {
		r := e.Do("GET", c.url, nil)
		if r.Status != 200 {
			t.Fatalf("GET %s: %d", c.url, r.Status)
		}
		if err := json.Unmarshal(r.Body, c.v); err != nil {
			t.Fatal(err)
		}
	}
	if len(docs.Servers) != 1 || docs.Servers[0].URL != e.Config.GatewayURL {
		t.Errorf("docs servers = %+v, want the gateway URL %s", docs.Servers, e.Config.GatewayURL)
	}
	if len(gw.Servers) != 0 {
		t.Errorf("gateway servers = %+v, want none (relative to the document)", gw.Servers)
	}
	if len(docs.Paths) != len(gw.Paths) || len(gw.Paths) == 0 {
		t.Errorf("docs host describes %d paths, gateway %d", len(docs.Paths), len(gw.Paths))
	}
	if r := e.Do("GET", e.DocsURL+"/llms.txt", nil); !strings.Contains(string(r.Body), "/openapi.json") {
		t.Errorf("docs llms.txt does not link the description")
	}
}
