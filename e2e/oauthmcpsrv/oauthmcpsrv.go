// Package oauthmcpsrv is the OAuth-protected upstream MCP server of
// gtmgate's end-to-end tests of upstream OAuth (#42): the product's sandbox
// authorization server (package mcpsandbox/oauthsandbox) in front of the
// go-sdk server of package upstreamsrv, plus test hooks.
//
// Test endpoints, never behind a token:
//
//   - POST /admin/expire: every access token issued so far stops working
//     (as if it expired early); refresh tokens still work;
//   - POST /admin/revoke: every access and refresh token is revoked;
//   - GET /admin/stats: counts of registrations, grants and refreshes.
package oauthmcpsrv

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate/e2e/upstreamsrv"
	"github.com/gtmgate/gtmgate/mcpsandbox/oauthsandbox"
)

// Options configures a Server.
type Options struct {
	// TokenTTL is an access token's lifetime (1 hour when 0).
	TokenTTL time.Duration
}

// Stats counts what the authorization server did.
type Stats = oauthsandbox.Stats

// Server is the sandbox authorization server and MCP server with test hooks.
type Server struct {
	*oauthsandbox.Server
	upstream *upstreamsrv.Server
	mux      *http.ServeMux
}

// New returns a Server; call SetBase with its address before serving.
func New(opts Options) *Server {
	up := upstreamsrv.New(upstreamsrv.Options{})
	s := &Server{Server: oauthsandbox.New(oauthsandbox.Options{MCP: up.Handler(), TokenTTL: opts.TokenTTL}),
		upstream: up, mux: http.NewServeMux()}
	s.mux.Handle("/", s.Server.Handler())
	s.mux.Handle("GET /calls", up.Handler())
	s.mux.HandleFunc("POST /admin/expire", func(w http.ResponseWriter, _ *http.Request) {
		s.ExpireAccess()
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("POST /admin/revoke", func(w http.ResponseWriter, _ *http.Request) {
		s.RevokeAll()
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("GET /admin/stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s.Stats())
	})
	return s
}

// Handler serves every route, the test hooks included.
func (s *Server) Handler() http.Handler { return s.mux }

// Upstream is the MCP server behind the token check.
func (s *Server) Upstream() *upstreamsrv.Server { return s.upstream }
