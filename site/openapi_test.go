package site

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// specOperations is the endpoint table of the site's specification (seed 000).
var specOperations = map[string]string{
	"/llms.txt": "getLlmsIndex", "/llms-full.txt": "getLlmsFullCorpus", "/index.md": "getHome", "/about.md": "getAbout",
	"/services.md": "getServices", "/resume.md": "getResume", "/pricing.md": "getPricing", "/faq.md": "getFaq",
	"/how-i-work.md": "getHowIWork", "/portfolio.md": "getPortfolio", "/tools.md": "getTools", "/brand.md": "getBrand",
	"/privacy.md": "getPrivacy", "/insights.md": "getInsights", "/insights/{slug}.md": "getInsight", "/contact.md": "getContact",
	"/shipping.md": "getShipping", "/sitemap.xml": "getSitemap", "/.well-known/agent-skills/index.json": "getAgentSkillsIndex",
	"/.well-known/mcp/server-card.json": "getMcpServerCard",
}

type apiDoc struct {
	OpenAPI  string `json:"openapi"`
	Info     struct{ Version string }
	Security []any `json:"security"`
	Paths    map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Parameters  []struct {
			Name   string
			In     string
			Schema struct{ Enum []string }
		}
		Responses map[string]any
	}
}

func TestOpenAPIFollowsTheSpecification(t *testing.T) {
	h := newHandler(t, "")
	resp := get(t, h, "GET", PathOpenAPI)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var d apiDoc
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" || d.Info.Version != "1.1.0" {
		t.Errorf("openapi %q, info.version %q; want 3.1.0 and 1.1.0", d.OpenAPI, d.Info.Version)
	}
	if d.Security == nil || len(d.Security) != 0 {
		t.Errorf("security = %v, want []", d.Security)
	}
	for path, id := range specOperations {
		op, ok := d.Paths[path]["get"]
		if !ok || op.OperationID != id {
			t.Errorf("GET %s: operationId %q, want %q", path, op.OperationID, id)
		}
		if strings.HasSuffix(path, ".md") && op.Responses["404"] == nil {
			t.Errorf("GET %s: no 404 response", path)
		}
	}
	slug := d.Paths["/insights/{slug}.md"]["get"].Parameters
	if len(slug) != 1 || slug[0].Name != "slug" || slug[0].In != "path" ||
		!slices.Equal(slices.Sorted(slices.Values(slug[0].Schema.Enum)), []string{"the-30-day-install-playbook", "why-gtm-initiatives-fail", "why-we-dont-measure-mqls"}) {
		t.Errorf("slug parameter = %+v", slug)
	}
	for _, p := range []string{PathMCP, PathLLMS} {
		if d.Paths[p] == nil {
			t.Errorf("%s is not described", p)
		}
	}
}

// TestOpenAPIDescribesWhatIsServed requests every described operation (path
// parameters filled from their enums) and validates the answer against the
// document; then checks that an unknown insight's 404 matches it too.
func TestOpenAPIDescribesWhatIsServed(t *testing.T) {
	h := newHandler(t, "")
	spec, _ := io.ReadAll(get(t, h, "GET", PathOpenAPI).Body)
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		t.Fatalf("document invalid: %v", verrs[0])
	}
	var d apiDoc
	if err := json.Unmarshal(spec, &d); err != nil {
		t.Fatal(err)
	}
	check := func(method, path string, body string, header ...string) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, testSiteURL+path, rd)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if ok, verrs := v.ValidateHttpResponse(req, rec.Result()); !ok {
			for _, e := range verrs {
				t.Errorf("%s %s → %d: %s: %s", method, path, rec.Code, e.Message, e.Reason)
			}
		}
		if rec.Code >= 500 {
			t.Errorf("%s %s → %d", method, path, rec.Code)
		}
	}
	n := 0
	for path, ops := range d.Paths {
		for method, op := range ops {
			concrete := path
			for _, p := range op.Parameters {
				if p.In == "path" {
					concrete = strings.Replace(concrete, "{"+p.Name+"}", p.Schema.Enum[0], 1)
				}
			}
			if method == "post" {
				check("POST", concrete, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
			} else {
				check(strings.ToUpper(method), concrete, "")
			}
			n++
		}
	}
	if n < len(specOperations) {
		t.Fatalf("only %d operations described", n)
	}
	check("GET", "/insights/no-such-insight.md", "")
}
