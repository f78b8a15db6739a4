package upstream

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// TestSecretsRedacted: a credential sent in the path or query (token
// introspection) is kept out of the error, its body excerpt and the
// transport error's URL.
func TestSecretsRedacted(t *testing.T) {
	t.Parallel()
	const secret = "ya29.path-or-query-token"
	echo, _ := scripted(t, []int{400}, nil, `{"error":"invalid_token","error_description":"token `+secret+` is bad"}`)
	// A closed port: the transport fails and quotes the URL.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		name, base string
		req        Request
	}{
		{"query, provider echoes it", echo.URL, Request{Method: http.MethodGet, Path: "/tokeninfo", Query: url.Values{"access_token": {secret}}, Secrets: []string{secret}}},
		{"query, unreachable", closed, Request{Method: http.MethodGet, Path: "/tokeninfo", Query: url.Values{"access_token": {secret}}}},
		{"path, unreachable", closed, Request{Method: http.MethodGet, Path: "/oauth/v1/access-tokens/" + secret, Secrets: []string{secret}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := MustNew(Options{Provider: "test", BaseURL: tt.base})
			err := c.Do(context.Background(), &tt.req, nil)
			var e *gtmgate.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v", err)
			}
			d, _ := e.Detail.(gtmgate.UpstreamDetail)
			if strings.Contains(e.Error(), secret) || strings.Contains(d.Body, secret) {
				t.Fatalf("secret leaked: %v / %q", e, d.Body)
			}
		})
	}
}
