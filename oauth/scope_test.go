package oauth

import (
	"net/http"
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

func TestStepUp(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	conf.Scopes = []string{ScopeRead}
	readOnly := e.tokensFor(t, conf, "acme")
	if readOnly.Extra("scope") != ScopeRead {
		t.Fatalf("scope = %v", readOnly.Extra("scope"))
	}
	write := e.tokensFor(t, e.publicClient(t), "acme")
	const (
		readCall  = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crm_contacts","arguments":{"action":"search"}}}`
		writeCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"crm_contacts","arguments":{"action":"update"}}}`
	)
	for _, tc := range []struct {
		name, token, body string
		status            int
	}{
		{"read token lists tools", readOnly.AccessToken, toolsList, http.StatusOK},
		{"read token reads", readOnly.AccessToken, readCall, http.StatusOK},
		{"read token mutates", readOnly.AccessToken, writeCall, http.StatusForbidden},
		{"read token mutates in a batch", readOnly.AccessToken, "[" + readCall + "," + writeCall + "]", http.StatusForbidden},
		{"write token mutates", write.AccessToken, writeCall, http.StatusOK},
		{"tenant token mutates", e.tokens["acme"], writeCall, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := e.callMCP(t, "/mcp", tc.token, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == http.StatusForbidden {
				h := resp.Header.Get("WWW-Authenticate")
				for _, want := range []string{`error="insufficient_scope"`, `scope="tools:read tools:write"`, `resource_metadata="` + e.srv.ResourceMetadataURL()} {
					if !strings.Contains(h, want) {
						t.Errorf("challenge %q lacks %s", h, want)
					}
				}
			}
		})
	}
}
