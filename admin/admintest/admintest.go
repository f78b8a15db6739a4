// Package admintest serves the real admin API, with the routes of a
// package under test mounted on it, for that package's HTTP tests.
package admintest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// Key is the break-glass admin key of the handler Handler returns.
const Key = "admintest-admin-key-0123456789"

// Handler returns the admin API over st with mounts, authenticated by Key,
// and the recorder its audit entries go to.
func Handler(st gtmgate.Store, mounts ...func(gtmgate.Router)) (http.Handler, *storetest.AuditRecorder) {
	rec := &storetest.AuditRecorder{}
	sum := sha256.Sum256([]byte(Key))
	return admin.New(admin.Options{Store: st, Recorder: rec, KeyHash: hex.EncodeToString(sum[:]), Extra: mounts}), rec
}

// Answer is an admin API answer.
type Answer struct {
	Status int
	Body   string
}

// Do sends an admin request with Key to baseURL+path; body "" sends none.
func Do(t testing.TB, baseURL, method, path, body string) Answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, baseURL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Admin-Key", Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return Answer{resp.StatusCode, string(b)}
}

// Object decodes the answer as a JSON object, or fails the test.
func (a Answer) Object(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(a.Body), &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %d %s", err, a.Status, a.Body)
	}
	return m
}

// Error returns the error answer's code and message, or fails the test.
func (a Answer) Error(t testing.TB) (code, message string) {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(a.Body), &e); err != nil {
		t.Fatalf("answer is not an error: %v: %s", err, a.Body)
	}
	return e.Error.Code, e.Error.Message
}

// Code returns the error answer's code, "" when the answer is no error.
func (a Answer) Code(t testing.TB) string {
	t.Helper()
	e, _ := a.Object(t)["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}
