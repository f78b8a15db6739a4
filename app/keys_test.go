package app_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
)

// TestWrongEncryptionKeyRefusesToStart: a replica started on a store whose
// secrets another key sealed refuses to start, with one line naming
// GTMGATE_ENCRYPTION_KEY and what to do, and never the key itself.
func TestWrongEncryptionKeyRefusesToStart(t *testing.T) {
	const first, second = "1111111111111111111111111111111111111111111111111111111111111111",
		"2222222222222222222222222222222222222222222222222222222222222222"
	dir := t.TempDir()
	e := apptest.Start(t, func(c *config.Config) { c.DataDir, c.EncryptionKey = dir, first })
	if r := e.Tool(e.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "key test"}); r.Status != 200 {
		t.Fatalf("first replica: call answered %d %s", r.Status, r.Body)
	}
	// One process serves from a data directory at a time (its lock), so the
	// replica with the other key starts once the first has stopped.
	if err := e.App.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg := e.Config
	cfg.EncryptionKey = second
	_, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler), "test")
	if err == nil {
		t.Fatal("a replica with another key started")
	}
	msg := err.Error()
	for _, want := range []string{"GTMGATE_ENCRYPTION_KEY", "it came from GTMGATE_ENCRYPTION_KEY", "first replica", "encryption.key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, first[:16]) || strings.Contains(msg, second[:16]) || strings.Contains(msg, "\n") {
		t.Errorf("refusal %q shows a key or spans lines", msg)
	}
	// The refused one changed nothing: the first key still serves the store.
	again := apptest.Start(t, func(c *config.Config) { c.DataDir, c.EncryptionKey = dir, first })
	if r := again.Tool(again.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "key test"}); r.Status != 200 {
		t.Fatalf("first key after the refusal: call answered %d %s", r.Status, r.Body)
	}
}

// TestUnreadableSecretIsNamedAndLogged: a provider token this replica's key
// cannot open (sealed under another key behind the check's back) answers
// 503 with a message naming the encryption key, not "the store is
// unavailable", and the cause is logged with the request id.
func TestUnreadableSecretIsNamedAndLogged(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.SiteAddr, cfg.DocsAddr, cfg.GatewayAddr = "off", "off", "127.0.0.1:0"
	cfg.Demo = true
	sum := sha256.Sum256([]byte(apptest.AdminKey))
	cfg.AdminKeyHash = hex.EncodeToString(sum[:])
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var logs apptest.SyncBuffer
	a, err := app.New(t.Context(), cfg, slog.New(slog.NewTextHandler(&logs, nil)), "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())

	other, _ := secret.NewSealer(bytes.Repeat([]byte{7}, secret.KeySize))
	st, err := sqlite.Open(t.Context(), filepath.Join(cfg.DataDir, "gtmgate.db"), &sqlstore.Options{Sealer: other})
	if err != nil {
		t.Fatal(err)
	}
	infos, err := st.ListProviderTokens(t.Context(), app.DemoTenant)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range infos {
		if err := st.PutProviderToken(t.Context(), &gtmgate.ProviderToken{TenantID: app.DemoTenant, Provider: p.Provider,
			AccountID: p.AccountID, AccessToken: "sealed-under-another-key", TokenType: "Bearer"}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	body := strings.NewReader(`{"tool":"crm_pipelines","input":{"action":"list","rationale":"unreadable secret"}}`)
	req, _ := http.NewRequest("POST", "http://"+a.Addr(app.SurfaceGateway)+"/api/v1/demo/crm", body)
	req.Header.Set("Authorization", "Bearer "+a.DemoToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "encryption key") ||
		!strings.Contains(string(b), "GTMGATE_ENCRYPTION_KEY") || strings.Contains(string(b), "store is unavailable") {
		t.Fatalf("answered %d %s, want 503 naming the encryption key", resp.StatusCode, b)
	}
	line := ""
	for l := range strings.SplitSeq(logs.String(), "\n") {
		if strings.Contains(l, "call failed") {
			line = l
		}
	}
	if !strings.Contains(line, "request_id=") || !strings.Contains(line, "cannot open sealed value") || strings.Contains(logs.String(), "sealed-under-another-key") {
		t.Errorf("log line %q, want the cause with the request id and no secret", line)
	}
}
