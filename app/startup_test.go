package app_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/config"
)

// TestStartupErrorsNameTheSetting: each start-up failure names the setting
// (and flag) to change, with the cause once.
func TestStartupErrorsNameTheSetting(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		modify func(*config.Config)
		want   []string
	}{
		{"data dir under a file", func(c *config.Config) { c.DataDir = filepath.Join(notADir, "data") },
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "not a directory"}},
		{"PostgreSQL unreachable", func(c *config.Config) { c.DatabaseURL = "postgres://127.0.0.1:1/test?connect_timeout=2" },
			[]string{"DATABASE_URL: the PostgreSQL store could not be opened", "127.0.0.1:1"}},
		{"gateway port in use", func(c *config.Config) { c.GatewayAddr = busy.Addr().String() },
			[]string{"GTMGATE_GATEWAY_ADDR (--gateway-addr)", busy.Addr().String(), "give a free address, or off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.DataDir = t.TempDir()
			cfg.SiteAddr, cfg.DocsAddr, cfg.GatewayAddr = "off", "off", "127.0.0.1:0"
			tc.modify(&cfg)
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			a, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler), "test")
			if err == nil {
				err = a.Start()
				defer a.Close(context.Background())
			}
			if err == nil {
				t.Fatal("started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
			if n := strings.Count(err.Error(), "unavailable"); n > 1 {
				t.Errorf("%q says unavailable %d times", err, n)
			}
		})
	}
}
