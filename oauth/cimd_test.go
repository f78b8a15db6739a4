package oauth

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"
)

// TestClientMetadataAddressPolicy: client ID metadata URLs are dialled under
// the egress policy, IPv6 forms that embed a loopback or private IPv4
// address (NAT64, 6to4, mapped) included.
func TestClientMetadataAddressPolicy(t *testing.T) {
	e := newEnv(t)
	for _, host := range []string{"[64:ff9b::7f00:1]", "[2002:7f00:1::1]", "[::ffff:127.0.0.1]", "[64:ff9b::a9fe:a9fe]", "127.0.0.1", "[::1]"} {
		t.Run(host, func(t *testing.T) {
			_, err := e.srv.client(t.Context(), "https://"+host+"/oauth/client.json")
			if !errors.Is(err, errForbiddenAddress) {
				t.Fatalf("err = %v, want the egress policy's refusal", err)
			}
		})
	}
}

// metadataServer serves a client ID metadata document over TLS on loopback.
func metadataServer(t *testing.T, doc func(url string) map[string]any) (*httptest.Server, string) {
	var docURL string
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(doc(docURL))
	}))
	t.Cleanup(ts.Close)
	docURL = ts.URL + "/oauth/client.json"
	return ts, docURL
}

func TestClientMetadataDocument(t *testing.T) {
	ts, docURL := metadataServer(t, func(u string) map[string]any {
		return map[string]any{"client_id": u, "client_name": "Doc Client", "redirect_uris": []string{redirectURI}, "token_endpoint_auth_method": "none"}
	})
	e := newEnv(t, func(o *Options) {
		o.ClientMetadata.AllowLoopback = true
		o.ClientMetadata.TLSConfig = ts.Client().Transport.(*http.Transport).TLSClientConfig
	})
	conf := &oauth2.Config{ClientID: docURL, RedirectURL: redirectURI,
		Endpoint: oauth2.Endpoint{AuthURL: e.base + "/oauth/authorize", TokenURL: e.base + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	tok := e.tokensFor(t, conf, "acme")
	if p, err := e.srv.Verify(t.Context(), tok.AccessToken); err != nil || p.ClientID != docURL {
		t.Fatalf("principal %+v, %v", p, err)
	}
}

func TestClientMetadataRefusals(t *testing.T) {
	for _, tc := range []struct {
		name          string
		allowLoopback bool
		doc           func(u string) map[string]any
	}{
		{"loopback address refused by the SSRF guard", false, func(u string) map[string]any {
			return map[string]any{"client_id": u, "redirect_uris": []string{redirectURI}}
		}},
		{"client_id differs from the URL", true, func(string) map[string]any {
			return map[string]any{"client_id": "https://other.example/client.json", "redirect_uris": []string{redirectURI}}
		}},
		{"no redirect_uris", true, func(u string) map[string]any { return map[string]any{"client_id": u} }},
		{"private_key_jwt", true, func(u string) map[string]any {
			return map[string]any{"client_id": u, "redirect_uris": []string{redirectURI}, "token_endpoint_auth_method": "private_key_jwt"}
		}},
		{"too large", true, func(u string) map[string]any {
			return map[string]any{"client_id": u, "redirect_uris": []string{redirectURI}, "pad": string(make([]byte, 70<<10))}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, docURL := metadataServer(t, tc.doc)
			e := newEnv(t, func(o *Options) {
				o.ClientMetadata.AllowLoopback = tc.allowLoopback
				o.ClientMetadata.TLSConfig = ts.Client().Transport.(*http.Transport).TLSClientConfig
			})
			_, err := e.srv.client(t.Context(), docURL)
			if err == nil {
				t.Fatal("document accepted")
			}
			if !tc.allowLoopback && !errors.Is(err, errForbiddenAddress) {
				t.Fatalf("err = %v, want the SSRF guard's refusal", err)
			}
			conf := &oauth2.Config{ClientID: docURL, RedirectURL: redirectURI, Endpoint: oauth2.Endpoint{AuthURL: e.base + "/oauth/authorize"}}
			resp, err := browser(t).Get(conf.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
				t.Errorf("authorize: status %d, Location %q; want an error page", resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}
}

func TestMetadataURLValidation(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://client.example/oauth/client.json", true},
		{"http://client.example/client.json", false},
		{"https://client.example", false},
		{"https://client.example/", false},
		{"https://client.example/a/../b.json", false},
		{"https://user:pw@client.example/c.json", false},
		{"https://client.example/c.json#frag", false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			if err := validateMetadataURL(tc.url); (err == nil) != tc.ok {
				t.Errorf("validateMetadataURL(%q) = %v, want ok %v", tc.url, err, tc.ok)
			}
		})
	}
}
