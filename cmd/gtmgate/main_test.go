package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
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
