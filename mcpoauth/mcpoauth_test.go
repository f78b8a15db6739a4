package mcpoauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// fakeAS is an MCP server and its authorization server on one origin.
type fakeAS struct {
	srv *httptest.Server
	// challenge: the 401 names the resource metadata; else well-known only.
	challenge, noS256, oidcOnly, noRegistration bool
	challenges                                  map[string]string // code → PKCE challenge
	resources                                   map[string]string // code → resource
}

func newFakeAS(t *testing.T, f *fakeAS) *fakeAS {
	t.Helper()
	f.challenges, f.resources = map[string]string{}, map[string]string{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		if f.challenge {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp", resource_metadata="/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:call"`)
		} else {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
		}
		w.WriteHeader(http.StatusUnauthorized)
	})
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, ResourceMetadata{Resource: f.srv.URL + "/mcp", AuthorizationServers: []string{f.srv.URL + "/as"}})
	})
	meta := func(w http.ResponseWriter, r *http.Request) {
		m := ServerMetadata{Issuer: f.srv.URL + "/as", AuthorizationEndpoint: f.srv.URL + "/as/authorize", TokenEndpoint: f.srv.URL + "/as/token",
			CodeChallengeMethodsSupported: []string{"S256"}}
		if !f.noRegistration {
			m.RegistrationEndpoint = f.srv.URL + "/as/register"
		}
		if f.noS256 {
			m.CodeChallengeMethodsSupported = []string{"plain"}
		}
		writeJSON(w, m)
	}
	mux.HandleFunc("GET /.well-known/openid-configuration/as", meta)
	mux.HandleFunc("GET /.well-known/oauth-authorization-server/as", func(w http.ResponseWriter, r *http.Request) {
		if f.oidcOnly {
			http.NotFound(w, r)
			return
		}
		meta(w, r)
	})
	mux.HandleFunc("POST /as/register", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if len(req.RedirectURIs) != 1 {
			http.Error(w, `{"error":"invalid_redirect_uri"}`, http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]string{"client_id": "dyn-1"})
	})
	mux.HandleFunc("POST /as/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		code, verifier := r.Form.Get("code"), r.Form.Get("code_verifier")
		sum := sha256.Sum256([]byte(verifier))
		if f.challenges[code] != base64.RawURLEncoding.EncodeToString(sum[:]) || r.Form.Get("resource") != f.resources[code] {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		writeJSON(w, map[string]any{"access_token": "at-1", "token_type": "Bearer", "refresh_token": "rt-1", "expires_in": 3600})
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name    string
		as      fakeAS
		wantErr string
		scope   string
	}{
		{name: "challenge names the metadata", as: fakeAS{challenge: true}, scope: "tools:read tools:call"},
		{name: "well-known fallback", as: fakeAS{}},
		{name: "OpenID discovery fallback", as: fakeAS{challenge: true, oidcOnly: true}, scope: "tools:read tools:call"},
		{name: "no S256", as: fakeAS{challenge: true, noS256: true}, wantErr: "does not offer PKCE with S256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAS(t, &tt.as)
			d, err := Discover(context.Background(), http.DefaultClient, f.srv.URL+"/mcp")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Resource != f.srv.URL+"/mcp" || d.Server.TokenEndpoint != f.srv.URL+"/as/token" || d.Scope != tt.scope {
				t.Errorf("discovery = %+v", d)
			}
		})
	}
}

func TestRegisterAndExchange(t *testing.T) {
	f := newFakeAS(t, &fakeAS{challenge: true})
	ctx := context.Background()
	d, err := Discover(ctx, http.DefaultClient, f.srv.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Register(ctx, http.DefaultClient, d, "https://gw.example/connect/callback", "gtmgate")
	if err != nil || c.ID != "dyn-1" {
		t.Fatalf("Register = %+v, %v", c, err)
	}
	cfg := Config(d, c, "https://gw.example/connect/callback", nil)
	verifier := oauth2.GenerateVerifier()
	u := AuthCodeURL(cfg, "st", verifier, d.Resource)
	for _, want := range []string{"code_challenge_method=S256", "resource=", "client_id=dyn-1", "scope=tools%3Aread+tools%3Acall"} {
		if !strings.Contains(u, want) {
			t.Errorf("AuthCodeURL %s lacks %s", u, want)
		}
	}
	sum := sha256.Sum256([]byte(verifier))
	f.challenges["code-1"], f.resources["code-1"] = base64.RawURLEncoding.EncodeToString(sum[:]), d.Resource
	tok, err := Exchange(ctx, cfg, "code-1", verifier, d.Resource)
	if err != nil || tok.AccessToken != "at-1" || tok.RefreshToken != "rt-1" {
		t.Fatalf("Exchange = %+v, %v", tok, err)
	}
	if _, err := Exchange(ctx, cfg, "code-1", "wrong-verifier-wrong-verifier-wrong-verifier", d.Resource); !Refused(err) {
		t.Errorf("a wrong verifier: err = %v, want refused", err)
	}
}

func TestRegisterWithoutEndpoint(t *testing.T) {
	f := newFakeAS(t, &fakeAS{challenge: true, noRegistration: true})
	d, err := Discover(context.Background(), http.DefaultClient, f.srv.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Register(context.Background(), http.DefaultClient, d, "https://gw.example/cb", "gtmgate"); err == nil ||
		!strings.Contains(err.Error(), "static client") {
		t.Errorf("err = %v, want a hint to configure a static client", err)
	}
}

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
	}{
		{`Bearer resource_metadata="https://a/b", scope="x y"`, map[string]string{"resource_metadata": "https://a/b", "scope": "x y"}},
		{`Bearer error=invalid_token, Realm="r\"q"`, map[string]string{"error": "invalid_token", "realm": `r"q`}},
		{`Basic realm="x"`, nil},
	}
	for _, tt := range tests {
		got := ParseChallenge(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("ParseChallenge(%q) = %v, want %v", tt.in, got, tt.want)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("ParseChallenge(%q)[%s] = %q, want %q", tt.in, k, got[k], v)
			}
		}
	}
}

func FuzzParseChallenge(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://a/b", scope="x y"`)
	f.Add(`Bearer a="\`)
	f.Fuzz(func(t *testing.T, s string) { ParseChallenge(s) })
}
