package oauth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestAllows(t *testing.T) {
	for _, tc := range []struct {
		name               string
		p                  *gtmgate.Principal
		readOK, mutatingOK bool
	}{
		{"nil", nil, false, false},
		{"tenant token", &gtmgate.Principal{Kind: "token"}, true, true},
		{"read scope", &gtmgate.Principal{Kind: "oauth", Scopes: []string{ScopeRead}}, true, false},
		{"write scope", &gtmgate.Principal{Kind: "oauth", Scopes: []string{ScopeWrite}}, true, true},
		{"no scope", &gtmgate.Principal{Kind: "oauth"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Allows(tc.p, false); got != tc.readOK {
				t.Errorf("Allows(read) = %v", got)
			}
			if got := Allows(tc.p, true); got != tc.mutatingOK {
				t.Errorf("Allows(mutating) = %v", got)
			}
		})
	}
}

// TestStepUp: a tools:read token passes the transport's scope check (the
// runner decides on mutations, see mcpgateway), and DenyScope answers with
// the step-up challenge.
func TestStepUp(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	conf.Scopes = []string{ScopeRead}
	readOnly := e.tokensFor(t, conf, "acme")
	if readOnly.Extra("scope") != ScopeRead {
		t.Fatalf("scope = %v", readOnly.Extra("scope"))
	}
	if resp := e.callMCP(t, "/mcp", readOnly.AccessToken, toolsList); resp.StatusCode != http.StatusOK {
		t.Fatalf("tools/list with tools:read: status %d", resp.StatusCode)
	}
	rec := httptest.NewRecorder()
	e.srv.DenyScope(rec, httptest.NewRequest(http.MethodPost, "/mcp", nil))
	if rec.Code != http.StatusForbidden {
		t.Fatalf("status %d, want 403", rec.Code)
	}
	h := rec.Header().Get("WWW-Authenticate")
	for _, want := range []string{`error="insufficient_scope"`, `scope="tools:read tools:write"`, `resource_metadata="` + e.srv.ResourceMetadataURL()} {
		if !strings.Contains(h, want) {
			t.Errorf("challenge %q lacks %s", h, want)
		}
	}
	// A principal with neither scope is refused before the MCP handler.
	rec = httptest.NewRecorder()
	noScope := &gtmgate.Principal{TenantID: "acme", Kind: gtmgate.PrincipalOAuth}
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	e.srv.RequireScope(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("handler reached without scope") })).
		ServeHTTP(rec, req.WithContext(gtmgate.NewContextWithPrincipal(req.Context(), noScope)))
	if rec.Code != http.StatusForbidden {
		t.Fatalf("no scope: status %d, want 403", rec.Code)
	}
}
