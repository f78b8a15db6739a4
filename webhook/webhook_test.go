package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
)

// The Standard Webhooks reference test vector.
func TestSignMatchesStandardWebhooks(t *testing.T) {
	secret, err := ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

func TestVerify(t *testing.T) {
	secret := []byte("0123456789abcdef0123")
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"type":"quality.alert"}`)
	h := http.Header{}
	Headers(h, secret, "msg_1", now, body)
	if err := Verify(secret, h, body, now.Add(time.Minute), 5*time.Minute); err != nil {
		t.Fatalf("authentic message: %v", err)
	}
	for name, tc := range map[string]struct {
		secret []byte
		body   []byte
		now    time.Time
	}{
		"other secret":   {[]byte("another-secret-of-enough-length"), body, now},
		"altered body":   {secret, []byte(`{"type":"quality.alarm"}`), now},
		"replayed later": {secret, body, now.Add(time.Hour)},
	} {
		if err := Verify(tc.secret, h, tc.body, tc.now, 5*time.Minute); !errors.Is(err, ErrSignature) {
			t.Errorf("%s: err = %v, want ErrSignature", name, err)
		}
	}
	if _, err := ParseSecret("short"); err == nil {
		t.Error("a 5-character secret was accepted")
	}
	if _, err := ParseSecret("whsec_!!notbase64!!"); err == nil {
		t.Error("a whsec_ secret that is not base64 was accepted")
	}
}

type deliveries struct {
	mu sync.Mutex
	ds []*gtmgate.WebhookDelivery
}

func (d *deliveries) AddDelivery(_ context.Context, x *gtmgate.WebhookDelivery) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ds = append(d.ds, x)
	return nil
}

func TestSenderSignsRecordsAndFailsOnNon2xx(t *testing.T) {
	secret := []byte("0123456789abcdef0123")
	status := http.StatusInternalServerError
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := Verify(secret, r.Header, body, time.Now(), time.Minute); err != nil {
			t.Errorf("receiver: %v", err)
		}
		got = append(got, r.Header.Get("webhook-id"))
		w.WriteHeader(status)
	}))
	defer srv.Close()
	rec := &deliveries{}
	s, err := NewSender(Options{URL: srv.URL + "/hook?token=s3cret", Secret: secret, Store: rec})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(Envelope{Type: "quality.alert", Data: map[string]string{"a": "b"}})
	job := &river.Job[Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: Args{WebhookID: "msg_x", Event: "quality.alert", Body: body}}
	err = s.Work(t.Context(), job)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("500 answer: err = %v (must fail and not show the URL's token)", err)
	}
	status = http.StatusNoContent
	job.Attempt = 2
	if err := s.Work(t.Context(), job); err != nil {
		t.Fatalf("204 answer: %v", err)
	}
	if len(got) != 2 || got[0] != "msg_x" || got[1] != "msg_x" {
		t.Fatalf("receiver saw ids %v; a retry must keep the id", got)
	}
	if len(rec.ds) != 2 || rec.ds[0].OK || rec.ds[0].Status != 500 || !rec.ds[1].OK || rec.ds[1].Attempt != 2 {
		t.Fatalf("recorded attempts = %+v, %+v", rec.ds[0], rec.ds[1])
	}
}

type endpoints map[string]Endpoint

func (e endpoints) Endpoint(_ context.Context, tenantID, id string) (Endpoint, error) {
	if to, ok := e[tenantID+"/"+id]; ok {
		return to, nil
	}
	return Endpoint{}, gtmgate.ErrNotFound
}

// TestSenderEndpoints: a message naming an endpoint goes to that
// endpoint's URL, signed with its secret, and is recorded with the
// endpoint and the URL redacted; a message whose endpoint is gone, or one
// for the alert webhook when there is none, is cancelled without an
// attempt.
func TestSenderEndpoints(t *testing.T) {
	alertSecret, routeSecret := []byte("0123456789abcdef-alert"), []byte("0123456789abcdef-route")
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		secret := alertSecret
		if r.URL.Path == "/route/T000/XXsecretXX" {
			secret = routeSecret
		}
		if err := Verify(secret, r.Header, body, time.Now(), time.Minute); err != nil {
			t.Errorf("receiver at %s: %v", r.URL.Path, err)
		}
		got = append(got, r.URL.Path)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	eps := endpoints{"acme/whk_1": {URL: srv.URL + "/route/T000/XXsecretXX", Secret: routeSecret}}
	work := func(s *Sender, a Args) error {
		t.Helper()
		a.Body = json.RawMessage(`{"type":"approval.requested"}`)
		return s.Work(t.Context(), &river.Job[Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: a})
	}
	rec := &deliveries{}
	s, err := NewSender(Options{URL: srv.URL + "/alerts", Secret: alertSecret, Endpoints: eps, Store: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := work(s, Args{WebhookID: "approval.requested_apr_1", Event: "approval.requested", TenantID: "acme", Endpoint: "whk_1"}); err != nil {
		t.Fatal(err)
	}
	if err := work(s, Args{WebhookID: "quality.alert_1", Event: "quality.alert"}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "/route/T000/XXsecretXX" || got[1] != "/alerts" {
		t.Fatalf("receiver saw %v", got)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	if d := rec.ds[0]; d.Endpoint != "whk_1" || d.Receiver != "http://"+host+"/…" || !d.OK {
		t.Errorf("route delivery recorded as %+v", d)
	}
	if d := rec.ds[1]; d.Endpoint != "" || d.Receiver != "http://"+host+"/…" {
		t.Errorf("alert delivery recorded as %+v", d)
	}
	var cancel *rivertype.JobCancelError
	for name, tc := range map[string]struct {
		s *Sender
		a Args
	}{
		"endpoint removed":    {s, Args{WebhookID: "m", TenantID: "acme", Endpoint: "whk_gone"}},
		"another tenant's":    {s, Args{WebhookID: "m", TenantID: "other", Endpoint: "whk_1"}},
		"no alert webhook":    {must(NewSender(Options{Endpoints: eps, Store: rec})), Args{WebhookID: "m"}},
		"no endpoints at all": {must(NewSender(Options{URL: srv.URL, Secret: alertSecret, Store: rec})), Args{WebhookID: "m", TenantID: "acme", Endpoint: "whk_1"}},
	} {
		if err := work(tc.s, tc.a); !errors.As(err, &cancel) || strings.Contains(err.Error(), "XXsecretXX") {
			t.Errorf("%s: err = %v, want a cancellation not naming the URL", name, err)
		}
	}
	if len(got) != 2 || len(rec.ds) != 2 {
		t.Errorf("cancelled messages were sent (%v) or recorded (%d)", got, len(rec.ds))
	}
	// A failed attempt names the endpoint's host, never its path.
	srv.Close()
	if err := work(s, Args{WebhookID: "approval.requested_apr_2", TenantID: "acme", Endpoint: "whk_1"}); err == nil || strings.Contains(err.Error(), "XXsecretXX") ||
		strings.Contains(rec.ds[2].Error, "XXsecretXX") {
		t.Errorf("failed attempt: err = %v, recorded %q", err, rec.ds[2].Error)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// FuzzVerify: no header or body makes Verify panic, and only the message
// signed with the secret verifies.
func FuzzVerify(f *testing.F) {
	secret := []byte("0123456789abcdef0123")
	now := time.Unix(1_800_000_000, 0)
	f.Add("msg_1", "1800000000", Sign(secret, "msg_1", now, []byte(`{}`)), []byte(`{}`))
	f.Add("", "x", "v1,", []byte(nil))
	f.Add("msg_2", "-1", "v1,AAAA v2,BBBB", []byte(`{"a":1}`))
	f.Fuzz(func(t *testing.T, id, ts, sig string, body []byte) {
		h := http.Header{}
		h.Set("webhook-id", id)
		h.Set("webhook-timestamp", ts)
		h.Set("webhook-signature", sig)
		err := Verify(secret, h, body, now, 5*time.Minute)
		if err == nil {
			sec, perr := strconv.ParseInt(ts, 10, 64)
			if perr != nil || !strings.Contains(sig, Sign(secret, id, time.Unix(sec, 0), body)) {
				t.Fatalf("verified a message not signed with the secret: %q %q %q", id, ts, sig)
			}
		}
	})
}
