package chat

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// fakeTenants serves tenants from a map; other TenantStore methods are not used.
type fakeTenants struct {
	gtmgate.TenantStore
	tenants map[string]*gtmgate.Tenant
}

func (f *fakeTenants) GetTenant(_ context.Context, id string) (*gtmgate.Tenant, error) {
	if t, ok := f.tenants[id]; ok {
		return t, nil
	}
	return nil, gtmgate.ErrNotFound
}

// recorded is one Record call.
type recorded struct {
	audit gtmgate.AuditEntry
	usage *gtmgate.UsageEvent
}

// fakeRecorder keeps what it is given and signals each call on calls.
type fakeRecorder struct {
	err   error
	calls chan recorded
}

func newFakeRecorder() *fakeRecorder { return &fakeRecorder{calls: make(chan recorded, 16)} }

func (f *fakeRecorder) Record(_ context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	if f.err != nil {
		return f.err
	}
	f.calls <- recorded{a, u}
	return nil
}

func (f *fakeRecorder) Flush(context.Context) error { return nil }
func (f *fakeRecorder) Check() error                { return nil }

// next returns the next recorded call; waiting is bounded only to turn a bug into a failure.
func (f *fakeRecorder) next(t *testing.T) recorded {
	t.Helper()
	select {
	case rec := <-f.calls:
		return rec
	case <-time.After(10 * time.Second):
		t.Fatal("no call recorded")
		return recorded{}
	}
}

// upstreamCall is what the fake model gateway received.
type upstreamCall struct {
	method, path string
	header       http.Header
	body         []byte
}

// env is a gateway in front of a fake upstream, both on loopback.
type env struct {
	gateway  *httptest.Server
	upstream *httptest.Server
	received chan upstreamCall
	recorder *fakeRecorder
}

const (
	gatewayKey  = "gw-secret-key-0001"
	tenantToken = "tenant-token-abcdefgh"
)

// newEnv starts upstream (which gets every request after it was recorded in
// received) and a gateway in front of it, as tenant "acme" with key "tok_1".
func newEnv(t testing.TB, upstream http.HandlerFunc, mod func(*Options)) *env {
	t.Helper()
	e := &env{received: make(chan upstreamCall, 16), recorder: newFakeRecorder()}
	e.upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body) // read first: only then does the server notice a client leaving
		r.Body = io.NopCloser(bytes.NewReader(body))
		select {
		case e.received <- upstreamCall{r.Method, r.URL.Path, r.Header.Clone(), body}:
		default:
		}
		upstream(w, r)
	}))
	t.Cleanup(e.upstream.Close)
	opts := Options{
		UpstreamURL: e.upstream.URL + "/v1",
		APIKey:      gatewayKey,
		Recorder:    e.recorder,
		Tenants: &fakeTenants{tenants: map[string]*gtmgate.Tenant{
			"acme":    {ID: "acme", Status: gtmgate.TenantActive},
			"limited": {ID: "limited", Status: gtmgate.TenantActive, AllowedModels: []string{"small", "medium"}},
		}},
		Logger: slog.New(slog.DiscardHandler),
	}
	if mod != nil {
		mod(&opts)
	}
	h, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	mux := http.NewServeMux()
	h.Routes(mux, authAs)
	e.gateway = httptest.NewServer(mux)
	t.Cleanup(e.gateway.Close)
	return e
}

// authAs stands in for the auth middleware: header X-Test-Tenant picks the
// tenant (none: unauthenticated), and the request id is fixed.
func authAs(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := gtmgate.NewContextWithRequestID(r.Context(), "req-1")
		if tenant := r.Header.Get("X-Test-Tenant"); tenant != "" {
			ctx = gtmgate.NewContextWithPrincipal(ctx, &gtmgate.Principal{TenantID: tenant, KeyID: "tok_1", Kind: "token"})
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// post sends body to the gateway's chat completions as tenant "acme" unless
// the header says otherwise.
func (e *env) post(t testing.TB, ctx context.Context, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.gateway.URL+"/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tenantToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Test-Tenant", "acme")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	return resp
}

// nextUpstream returns the next request the upstream received.
func (e *env) nextUpstream(t *testing.T) upstreamCall {
	t.Helper()
	select {
	case c := <-e.received:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("upstream received nothing")
		return upstreamCall{}
	}
}

func readString(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// jsonUpstream answers every request with status and body.
func jsonUpstream(status int, body string, header map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}
