package app_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
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
	// The first replica still serves: the refused one changed nothing.
	if r := e.Tool(e.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "key test"}); r.Status != 200 {
		t.Fatalf("first replica after the refusal: call answered %d %s", r.Status, r.Body)
	}
}
