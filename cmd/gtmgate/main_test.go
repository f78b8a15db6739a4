package main

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"version"}, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "gtmgate ") || !strings.HasPrefix(lines[1], "commit ") || !strings.HasPrefix(lines[2], "go1.") {
		t.Fatalf("version output %q", out.String())
	}
}

func TestHealthCommand(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/health/ready":
			w.WriteHeader(status)
			w.Write([]byte(`{"status":"ok"}`))
		case "/health/live":
			w.Write([]byte(`{"status":"live"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var out, errOut bytes.Buffer
	if code := run([]string{"health", "--url", srv.URL}, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"ok"`) {
		t.Fatalf("healthy: exit %d, %q %q", code, out.String(), errOut.String())
	}
	status = http.StatusServiceUnavailable
	if code := run([]string{"health", "--url", srv.URL}, &out, &errOut); code != 1 {
		t.Fatalf("503: exit %d", code)
	}
	out.Reset()
	if code := run([]string{"health", "--live", "--url", srv.URL}, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"live"`) {
		t.Fatalf("--live while not ready: exit %d, %q", code, out.String())
	}
	srv.Close()
	if code := run([]string{"health", "--url", srv.URL}, &out, &errOut); code != 1 {
		t.Fatalf("unreachable: exit %d", code)
	}
}

func TestDefaultHealthURL(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "http://127.0.0.1:8081"},
		{map[string]string{"GTMGATE_GATEWAY_ADDR": "0.0.0.0:9000"}, "http://127.0.0.1:9000"},
		{map[string]string{"GTMGATE_GATEWAY_ADDR": ":9000"}, "http://127.0.0.1:9000"},
		{map[string]string{"GTMGATE_GATEWAY_ADDR": "[::]:9000"}, "http://127.0.0.1:9000"},
		{map[string]string{"GTMGATE_GATEWAY_ADDR": "10.0.0.5:9000"}, "http://10.0.0.5:9000"},
		{map[string]string{"GTMGATE_HEALTH_URL": "https://gw.example", "GTMGATE_GATEWAY_ADDR": ":1"}, "https://gw.example"},
		{map[string]string{"GTMGATE_GATEWAY_URL": "http://127.0.0.1:9001", "GTMGATE_GATEWAY_ADDR": ":1"}, "http://127.0.0.1:9001"},
		{map[string]string{"GTMGATE_HEALTH_URL": "https://gw.example", "GTMGATE_GATEWAY_URL": "http://x"}, "https://gw.example"},
	} {
		if got := defaultHealthURL(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestHelpAndUnknownCommands: asking for help is not an error (exit 0, the
// usage on stdout); an unknown command is named (exit 2).
func TestHelpAndUnknownCommands(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		code      int
		stdout    string
		stderrHas string
	}{
		{[]string{"help"}, 0, "usage:", ""},
		{[]string{"-h"}, 0, "usage:", ""},
		{[]string{"--help"}, 0, "usage:", ""},
		{[]string{"serve", "-h"}, 0, "", ""}, // the flag list goes to the process's stderr
		{[]string{"bogus"}, 2, "", `unknown command "bogus"`},
		{nil, 2, "", "usage:"},
	} {
		var out, errs bytes.Buffer
		code := run(tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errs.String(), tc.stderrHas) {
			t.Errorf("%v: exit %d, stdout %.60q, stderr %.200q", tc.args, code, out.String(), errs.String())
		}
	}
}

// TestServeCheck: serve --check validates the configuration as serve does,
// from the environment and the flags, says "configuration ok" or the one
// line naming the setting (exit 2), and opens nothing: the data directory
// is not created and no listener is bound.
func TestServeCheck(t *testing.T) {
	key := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name      string
		env       map[string]string
		args      []string
		code      int
		stdout    string
		stderrHas string
	}{
		{"defaults", nil, nil, 0, "configuration ok\n", ""},
		{"production", map[string]string{
			"GTMGATE_GATEWAY_ADDR": "0.0.0.0:8081", "GATEWAY_URL": "https://gw.example.com",
			"DATABASE_URL": "postgres://gtmgate@db.internal:5432/gtmgate?sslmode=require", "GTMGATE_ENCRYPTION_KEY": key,
			"ALERT_WEBHOOK_URL": "https://hooks.example.com/gtmgate", "ALERT_WEBHOOK_SECRET": "whsec_MDEyMzQ1Njc4OWFiY2RlZg==",
		}, nil, 0, "configuration ok\n", ""},
		{"a flag", nil, []string{"--log-format", "yaml"}, 2, "", `gtmgate: configuration: GTMGATE_LOG_FORMAT: "yaml" is not text or json`},
		{"an environment variable", map[string]string{"GTMGATE_UPSTREAM_HUBSPOT": "api.hubapi.com"}, nil, 2, "", "GTMGATE_UPSTREAM_HUBSPOT"},
		{"alert webhook without its secret", map[string]string{"ALERT_WEBHOOK_URL": "https://hooks.example.com/gtmgate"}, nil, 2, "", "ALERT_WEBHOOK_SECRET: required"},
		{"alert webhook secret too short", map[string]string{"ALERT_WEBHOOK_URL": "https://hooks.example.com/gtmgate", "ALERT_WEBHOOK_SECRET": "short"}, nil, 2, "", "ALERT_WEBHOOK_SECRET: the secret must be at least 16 characters"},
		{"encryption key malformed", map[string]string{"GTMGATE_ENCRYPTION_KEY": "not-a-key"}, nil, 2, "", "GTMGATE_ENCRYPTION_KEY: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "data")
			busy, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer busy.Close()
			// A bound port would stop serve; the check never listens.
			t.Setenv("GTMGATE_SITE_ADDR", busy.Addr().String())
			t.Setenv("GTMGATE_DATA_DIR", dataDir)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var out, errs bytes.Buffer
			code := run(append([]string{"serve", "--check"}, tc.args...), &out, &errs)
			if code != tc.code || out.String() != tc.stdout || !strings.Contains(errs.String(), tc.stderrHas) || strings.Count(errs.String(), "\n") > 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q on one line", code, out.String(), errs.String(), tc.code, tc.stdout, tc.stderrHas)
			}
			if strings.Contains(errs.String(), "not-a-key") || strings.Contains(errs.String(), "short\"") {
				t.Errorf("the error repeats the secret: %q", errs.String())
			}
			if _, err := os.Stat(dataDir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the check touched the data directory: %v", err)
			}
		})
	}
}

// TestExports: the start-up output sets the docs' variables for what this
// start knows, in a form a shell takes as it is.
func TestExports(t *testing.T) {
	all := map[string]string{"site": "127.0.0.1:8080", "gateway": "127.0.0.1:8081", "docs": "127.0.0.1:8082"}
	for _, tc := range []struct {
		name            string
		addrs           map[string]string
		token, adminKey string
		want            []string
	}{
		{"first demo start", all, "demo_0a1b", "gtmadm_Rg-Y_J", []string{
			"GTMGATE_GATEWAY_URL=http://127.0.0.1:8081", "GTMGATE_SITE_URL=http://127.0.0.1:8080", "GTMGATE_DOCS_URL=http://127.0.0.1:8082",
			"GTMGATE_TOKEN=demo_0a1b", "GTMGATE_ADMIN_KEY=gtmadm_Rg-Y_J"}},
		{"later start, no demo", all, "", "", []string{
			"GTMGATE_GATEWAY_URL=http://127.0.0.1:8081", "GTMGATE_SITE_URL=http://127.0.0.1:8080", "GTMGATE_DOCS_URL=http://127.0.0.1:8082"}},
		{"gateway off", map[string]string{"site": "127.0.0.1:8080"}, "demo_0a1b", "gtmadm_x", []string{"GTMGATE_SITE_URL=http://127.0.0.1:8080"}},
		{"nothing known", nil, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, line := range strings.Split(exports(tc.addrs, tc.token, tc.adminKey), "\n") {
				if v, ok := strings.CutPrefix(line, "  export "); ok {
					got = append(got, v)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("exports %q, want %q", got, tc.want)
			}
		})
	}
}
