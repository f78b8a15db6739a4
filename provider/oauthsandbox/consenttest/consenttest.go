// Package consenttest drives a sandbox authorization server's consent page
// in tests, as a browser with JavaScript off would.
package consenttest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var requestField = regexp.MustCompile(`name="request" value="([^"]+)"`)

// Page GETs the authorize URL (a path and query on h) and returns the
// response.
func Page(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	return w
}

// Decide opens the consent page at target, presses Allow (allow) or Deny,
// and returns where the sandbox redirects the browser.
func Decide(t *testing.T, h http.Handler, target string, allow bool) *url.URL {
	t.Helper()
	page := Page(t, h, target)
	if page.Code != http.StatusOK {
		t.Fatalf("consent page: %d %s", page.Code, page.Body)
	}
	m := requestField.FindStringSubmatch(page.Body.String())
	if m == nil {
		t.Fatalf("consent page has no form: %s", page.Body)
	}
	decision := "deny"
	if allow {
		decision = "allow"
	}
	path, _, _ := strings.Cut(target, "?")
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(url.Values{"request": {m[1]}, "decision": {decision}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusFound {
		t.Fatalf("consent decision: %d %s", w.Code, w.Body)
	}
	u, err := url.Parse(w.Header().Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Post sends a form to path on h.
func Post(t *testing.T, h http.Handler, path string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// PostJSON posts form to path like Post and decodes the JSON answer (a
// token endpoint's), failing the test when it is not JSON.
func PostJSON(t *testing.T, h http.Handler, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	w := Post(t, h, path, form)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer %d %s", w.Code, w.Body)
	}
	return w.Code, out
}

// Verifier is a fixed RFC 7636 code verifier; Challenge is its S256 challenge.
const Verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

// Challenge returns the S256 challenge of verifier.
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
