// Package apptest starts a real gtmgate App for tests: port 0 listeners, a
// temporary data dir, demo sandboxes, a known admin key.
package apptest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/config"
)

// AdminKey is the admin key of every test App.
const AdminKey = "test-admin-key-0123456789"

// Env is a running App.
type Env struct {
	T          testing.TB
	App        *app.App
	GatewayURL string
	SiteURL    string
	DocsURL    string
	DemoToken  string
	Config     config.Config

	contract gatewayContract
}

// Start runs an App until the test ends. modify may change the configuration
// (it starts from defaults with --demo on and every listener on port 0).
func Start(t testing.TB, modify func(*config.Config)) *Env {
	t.Helper()
	return StartLogged(t, modify, nil)
}

// StartLogged is Start with the App's log written to logs as text (nil:
// discarded).
func StartLogged(t testing.TB, modify func(*config.Config), logs io.Writer) *Env {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.SiteAddr, cfg.GatewayAddr, cfg.DocsAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	sum := sha256.Sum256([]byte(AdminKey))
	cfg.AdminKeyHash = hex.EncodeToString(sum[:])
	cfg.Demo = true
	if modify != nil {
		modify(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	logger := slog.New(slog.DiscardHandler)
	if logs != nil {
		logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a, err := app.New(context.Background(), cfg, logger, "test")
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	if err := a.Start(); err != nil {
		t.Fatalf("app.Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Errorf("app.Close: %v", err)
		}
	})
	e := &Env{T: t, App: a, DemoToken: a.DemoToken, Config: cfg}
	if addr := a.Addr(app.SurfaceGateway); addr != "" {
		e.GatewayURL = "http://" + addr
	}
	if addr := a.Addr(app.SurfaceSite); addr != "" {
		e.SiteURL = "http://" + addr
	}
	if addr := a.Addr(app.SurfaceDocs); addr != "" {
		e.DocsURL = "http://" + addr
	}
	return e
}

// Response is a decoded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic map.
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// ErrorCode returns error.code of an error body.
func (r *Response) ErrorCode(t testing.TB) string {
	t.Helper()
	e, _ := r.JSON(t)["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// Do sends a request with a JSON body (string or value) and headers.
func (e *Env) Do(method, url string, body any, headers ...string) *Response {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		e.T.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	e.checksGateway(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	e.checkGatewayResponse(req, resp.StatusCode, resp.Header, b)
	e.checkToolOutput(req, b)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Admin sends an admin API request with the admin key.
func (e *Env) Admin(method, path string, body any) *Response {
	e.T.Helper()
	return e.Do(method, e.GatewayURL+path, body, "X-Admin-Key", AdminKey)
}

// Tool calls POST /api/v1/{tenant}/{domain} with token.
func (e *Env) Tool(token, tenant, domain, tool string, input map[string]any) *Response {
	e.T.Helper()
	return e.Do("POST", e.GatewayURL+"/api/v1/"+tenant+"/"+domain, map[string]any{"tool": tool, "input": input},
		"Authorization", "Bearer "+token)
}

// NewTenant provisions a tenant with the given providers config and returns a fresh bearer token.
func (e *Env) NewTenant(id string, providers map[string]any) string {
	e.T.Helper()
	if providers == nil {
		providers = map[string]any{}
	}
	if r := e.Admin("PUT", "/admin/tenants/"+id, map[string]any{"name": "Tenant " + id, "status": "active", "providers": providers}); r.Status >= 300 {
		e.T.Fatalf("put tenant: %d %s", r.Status, r.Body)
	}
	token := "tok-" + id + "-0123456789abcdef"
	if r := e.Admin("POST", "/admin/auth", map[string]any{"tenant_id": id, "token": token}); r.Status != 201 {
		e.T.Fatalf("register token: %d %s", r.Status, r.Body)
	}
	return token
}
