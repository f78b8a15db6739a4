package idpsandbox_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

// go-oidc's discovery accepts the issuer with and without a path, and every
// endpoint it advertises sits under the issuer.
func TestDiscovery(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"", "/idp", "/demo/idp"} {
		t.Run("path="+path, func(t *testing.T) {
			t.Parallel()
			sb := startSandbox(t, path, idpsandbox.Options{})
			provider, err := oidc.NewProvider(t.Context(), sb.issuer)
			if err != nil {
				t.Fatalf("oidc.NewProvider(%q): %v", sb.issuer, err)
			}
			var meta struct {
				Issuer         string   `json:"issuer"`
				Authorization  string   `json:"authorization_endpoint"`
				Token          string   `json:"token_endpoint"`
				Userinfo       string   `json:"userinfo_endpoint"`
				JWKS           string   `json:"jwks_uri"`
				Scopes         []string `json:"scopes_supported"`
				Claims         []string `json:"claims_supported"`
				Challenges     []string `json:"code_challenge_methods_supported"`
				TokenAuth      []string `json:"token_endpoint_auth_methods_supported"`
				IDTokenSigning []string `json:"id_token_signing_alg_values_supported"`
			}
			if err := provider.Claims(&meta); err != nil {
				t.Fatal(err)
			}
			if meta.Issuer != sb.issuer {
				t.Errorf("issuer %q, want %q", meta.Issuer, sb.issuer)
			}
			for name, u := range map[string]string{
				"authorization": meta.Authorization, "token": meta.Token,
				"userinfo": meta.Userinfo, "jwks": meta.JWKS,
			} {
				if !strings.HasPrefix(u, sb.issuer+"/") {
					t.Errorf("%s endpoint %q is not under the issuer", name, u)
				}
			}
			if diff := cmp.Diff([]string{"S256"}, meta.Challenges); diff != "" {
				t.Errorf("code_challenge_methods_supported (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"openid", "email", "profile", "groups"}, meta.Scopes); diff != "" {
				t.Errorf("scopes_supported (-want +got):\n%s", diff)
			}
			for _, want := range []string{"client_secret_basic", "client_secret_post"} {
				if !slices.Contains(meta.TokenAuth, want) {
					t.Errorf("token_endpoint_auth_methods_supported %v lacks %s", meta.TokenAuth, want)
				}
			}
			if !slices.Contains(meta.Claims, "groups") {
				t.Errorf("claims_supported %v lacks groups", meta.Claims)
			}
			if diff := cmp.Diff([]string{"RS256"}, meta.IDTokenSigning); diff != "" {
				t.Errorf("id_token_signing_alg_values_supported (-want +got):\n%s", diff)
			}

			resp, err := http.Get(meta.JWKS)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var jwks struct {
				Keys []struct {
					Kty, Alg, Use, Kid string
				} `json:"keys"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&jwks); err != nil {
				t.Fatalf("decode JWKS: %v", err)
			}
			if len(jwks.Keys) != 1 || jwks.Keys[0].Kty != "RSA" || jwks.Keys[0].Alg != "RS256" || jwks.Keys[0].Use != "sig" || jwks.Keys[0].Kid == "" {
				t.Errorf("JWKS = %+v, want one RSA RS256 signing key with a kid", jwks.Keys)
			}
		})
	}
}

// A full sign-in works when the issuer has no path, too.
func TestSignInRootIssuer(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "", idpsandbox.Options{})
	rp := newRelyingParty(t, sb)
	a, code := rp.signIn(t, ada.Subject)
	tok, err := rp.exchange(a, code)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	if got := rp.idToken(t, a, tok).Subject; got != ada.Subject {
		t.Errorf("sub %q, want %q", got, ada.Subject)
	}
}

// Requests outside the issuer's path are not the provider's.
func TestOutsideIssuerPath(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	for _, path := range []string{"/idpx/keys", "/keys", "/idp"} {
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, rec.Code)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	t.Parallel()
	good := func() idpsandbox.Options {
		return idpsandbox.Options{
			Issuer:  "http://127.0.0.1:8080/idp",
			People:  []idpsandbox.Person{ada},
			Clients: []idpsandbox.Client{rpClient},
		}
	}
	tests := []struct {
		name   string
		change func(*idpsandbox.Options)
	}{
		{"no issuer", func(o *idpsandbox.Options) { o.Issuer = "" }},
		{"relative issuer", func(o *idpsandbox.Options) { o.Issuer = "/idp" }},
		{"ftp issuer", func(o *idpsandbox.Options) { o.Issuer = "ftp://127.0.0.1/idp" }},
		{"trailing slash", func(o *idpsandbox.Options) { o.Issuer = "http://127.0.0.1:8080/idp/" }},
		{"query", func(o *idpsandbox.Options) { o.Issuer = "http://127.0.0.1:8080/idp?x=1" }},
		{"empty subject", func(o *idpsandbox.Options) { o.People = []idpsandbox.Person{{Email: "x@example.com"}} }},
		{"subject with a colon", func(o *idpsandbox.Options) { o.People = []idpsandbox.Person{{Subject: "a:b"}} }},
		{"duplicate subject", func(o *idpsandbox.Options) { o.People = []idpsandbox.Person{ada, ada} }},
		{"client without secret", func(o *idpsandbox.Options) { o.Clients = []idpsandbox.Client{{ID: "x"}} }},
		{"duplicate client", func(o *idpsandbox.Options) { o.Clients = []idpsandbox.Client{rpClient, rpClient} }},
	}
	if _, err := idpsandbox.New(good()); err != nil {
		t.Fatalf("New(good options): %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := good()
			tt.change(&opts)
			if _, err := idpsandbox.New(opts); err == nil {
				t.Error("New accepted the options")
			}
		})
	}
}
