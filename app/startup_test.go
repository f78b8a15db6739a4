package app_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
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
	// Each data dir case's first failure is in a file this process keeps in
	// the data dir: it must name the data dir, not the setting of that file.
	inDataDir := func(name string, mode os.FileMode) func(*testing.T, *config.Config) {
		return func(t *testing.T, c *config.Config) {
			p := filepath.Join(c.DataDir, name)
			write := func() error { return os.WriteFile(p, nil, 0o600) }
			if mode.IsDir() {
				write = func() error { return os.Mkdir(p, 0o700) }
			}
			if err := write(); err != nil {
				t.Fatal(err)
			}
		}
	}
	notKeys := []string{"GTMGATE_ENCRYPTION_KEY", "ADMIN_API_KEY"}
	for _, tc := range []struct {
		name    string
		modify  func(*testing.T, *config.Config)
		want    []string
		notWant []string
	}{
		{"data dir under a file", func(_ *testing.T, c *config.Config) { c.DataDir = filepath.Join(notADir, "data") },
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "not a directory"}, notKeys},
		// Tests run as root, who may write any directory a chmod makes
		// read-only; /proc takes no new files from anyone.
		{"data dir not writable", func(t *testing.T, c *config.Config) {
			if runtime.GOOS != "linux" {
				t.Skip("needs /proc")
			}
			c.DataDir = "/proc"
		}, []string{"GTMGATE_DATA_DIR (--data-dir)", "/proc cannot be used as the data directory", ".write-check-"}, notKeys},
		{"encryption key file unreadable", inDataDir("encryption.key", os.ModeDir),
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "encryption.key"}, notKeys},
		{"admin key hash file unreadable", inDataDir("admin_key.sha256", os.ModeDir),
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "admin_key.sha256"}, notKeys},
		{"SQLite file not writable", inDataDir("gtmgate.db", os.ModeDir),
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "gtmgate.db"}, notKeys},
		{"audit journal not a directory", inDataDir("journal", 0),
			[]string{"GTMGATE_DATA_DIR (--data-dir)", "cannot be used as the data directory", "journal"}, notKeys},
		{"PostgreSQL unreachable", func(_ *testing.T, c *config.Config) {
			c.DatabaseURL = "postgres://127.0.0.1:1/test?connect_timeout=2"
		}, []string{"DATABASE_URL: the PostgreSQL store could not be opened", "127.0.0.1:1"}, nil},
		{"gateway port in use", func(_ *testing.T, c *config.Config) { c.GatewayAddr = busy.Addr().String() },
			[]string{"GTMGATE_GATEWAY_ADDR (--gateway-addr)", busy.Addr().String(), "give a free address, or off"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.DataDir = t.TempDir()
			cfg.SiteAddr, cfg.DocsAddr, cfg.GatewayAddr = "off", "off", "127.0.0.1:0"
			tc.modify(t, &cfg)
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
			for _, w := range tc.notWant {
				if strings.Contains(err.Error(), w) {
					t.Errorf("%q blames %s", err, w)
				}
			}
			if n := strings.Count(err.Error(), "unavailable"); n > 1 {
				t.Errorf("%q says unavailable %d times", err, n)
			}
		})
	}
}
