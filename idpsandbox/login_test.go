package idpsandbox_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

func TestLoginPage(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	rp := newRelyingParty(t, sb)
	a := rp.start(t)
	if want := sb.issuer + "/login?authRequestID="; !strings.HasPrefix(a.loginURL, want) {
		t.Fatalf("login URL %q, want it to start with %q", a.loginURL, want)
	}
	resp := rp.get(t, a.loginURL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	body := readBody(t, resp)
	for _, want := range []string{
		"Sandbox sign-in (gtmgate demo IdP) — choose who you are",
		"not for production",
		`<form method="post" action="` + sb.issuer + `/login">`,
		`<input type="hidden" name="id" value="` + a.requestID + `">`,
		`<button type="submit" name="subject" value="u-ada">`,
		"Ada Lovelace", "ada@example.com", "engineering, admins",
		`<button type="submit" name="subject" value="u-bob">`,
		"Bob &lt;b&gt;Tables&lt;/b&gt;", "(email not verified)", "groups: none",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Escaped names, no script, no external assets.
	for _, unwanted := range []string{"<b>Tables", "<script", "src=", "<link", "@import"} {
		if strings.Contains(body, unwanted) {
			t.Errorf("page contains %q", unwanted)
		}
	}
}

// Sign-in posts that cannot complete a request get a 400 page saying why.
func TestLoginRefused(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	tests := []struct {
		name string
		// send makes the request, given a fresh sign-in attempt.
		send func(t *testing.T, rp *relyingParty, a *attempt) *http.Response
		want string
	}{
		{
			name: "unknown subject",
			send: func(t *testing.T, rp *relyingParty, a *attempt) *http.Response {
				return rp.choose(t, a, "u-mallory")
			},
			want: "Unknown person",
		},
		{
			name: "no subject",
			send: func(t *testing.T, rp *relyingParty, a *attempt) *http.Response {
				return rp.choose(t, a, "")
			},
			want: "Unknown person",
		},
		{
			name: "unknown request id",
			send: func(t *testing.T, rp *relyingParty, a *attempt) *http.Response {
				a.requestID = "0123456789abcdef"
				return rp.choose(t, a, ada.Subject)
			},
			want: "Unknown or expired sign-in request",
		},
		{
			name: "request already signed in",
			send: func(t *testing.T, rp *relyingParty, a *attempt) *http.Response {
				if resp := rp.choose(t, a, ada.Subject); resp.StatusCode != http.StatusSeeOther {
					t.Fatalf("first sign-in: status %d", resp.StatusCode)
				}
				return rp.choose(t, a, bob.Subject)
			},
			want: "Unknown or expired sign-in request",
		},
		{
			name: "page for an unknown request id",
			send: func(t *testing.T, rp *relyingParty, _ *attempt) *http.Response {
				return rp.get(t, sb.issuer+"/login?authRequestID=nope")
			},
			want: "Unknown or expired sign-in request",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := newRelyingParty(t, sb)
			resp := tt.send(t, rp, rp.start(t))
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", resp.StatusCode)
			}
			body := readBody(t, resp)
			if !strings.Contains(body, tt.want) || !strings.Contains(body, "not for production") {
				t.Errorf("page lacks %q or the sandbox notice:\n%s", tt.want, body)
			}
			if strings.Contains(body, "<form") {
				t.Error("error page shows the sign-in form")
			}
		})
	}
}

func TestLoginMethodNotAllowed(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, sb.issuer+"/login", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT /login: status %d, want 405", resp.StatusCode)
	}
}

// The sign-in form posts url-encoded; a browser sends exactly this.
func TestLoginFormEncoding(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{
		People: []idpsandbox.Person{{Subject: "a b&c=d", Email: "odd@example.com"}},
	})
	rp := newRelyingParty(t, sb)
	a := rp.start(t)
	resp, err := rp.browser.Post(sb.issuer+"/login", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"id": {a.requestID}, "subject": {"a b&c=d"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("status %d, want 303", resp.StatusCode)
	}
}
