package app_test

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestSecondServeOnADataDirIsRefused: a second gtmgate on a data directory
// another one serves from is refused with a message naming the holder and
// the fix, and starts once the first has stopped (issue #43 item 9).
func TestSecondServeOnADataDirIsRefused(t *testing.T) {
	dir := t.TempDir()
	first := apptest.Start(t, func(c *config.Config) { c.DataDir, c.SiteAddr, c.DocsAddr = dir, "off", "off" })
	second := first.Config
	second.GatewayAddr, second.GatewayURL = "127.0.0.1:0", ""
	if err := second.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err := app.New(t.Context(), second, slog.New(slog.DiscardHandler), "test")
	if err == nil || !strings.Contains(err.Error(), "is in use by another gtmgate (process "+strconv.Itoa(os.Getpid())) ||
		!strings.Contains(err.Error(), "its own --data-dir") {
		t.Fatalf("second serve on the same data dir: %v", err)
	}
	if err := first.App.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	again, err := app.New(t.Context(), second, slog.New(slog.DiscardHandler), "test")
	if err != nil {
		t.Fatalf("after the first stopped: %v", err)
	}
	again.Close(context.Background())
}
