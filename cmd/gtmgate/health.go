package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// healthCheck serves `gtmgate health`: GET /health/ready (or, with --live,
// /health/live) of a running gateway and exit 0 when it answers 200, 1
// otherwise. Container images have no curl, so their HEALTHCHECK runs this.
func healthCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := defaultHealthURL(os.Getenv)
	url := fs.String("gateway-url", def, "base URL of the gateway, as gtmgate admin names it (default from GTMGATE_HEALTH_URL, GTMGATE_GATEWAY_URL, GTMGATE_GATEWAY_ADDR)")
	fs.StringVar(url, "url", def, "the same as --gateway-url (its earlier name)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	live := fs.Bool("live", false, "ask /health/live (the process answers) instead of /health/ready (it can serve calls)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	path := "/health/ready"
	if *live {
		path = "/health/live"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(*url, "/")+path, nil)
	if err != nil {
		fmt.Fprintln(stderr, "gtmgate health:", err)
		return 2
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "gtmgate health:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	fmt.Fprintln(stdout, strings.TrimSpace(string(body)))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "gtmgate health: %s answered %d\n", req.URL, resp.StatusCode)
		return 1
	}
	return 0
}

// defaultHealthURL is GTMGATE_HEALTH_URL, else GTMGATE_GATEWAY_URL (the
// name the admin CLI and the docs' examples use), else the gateway
// listener's address on loopback (a wildcard bind such as 0.0.0.0:8081 is
// reached there).
func defaultHealthURL(getenv func(string) string) string {
	for _, k := range []string{"GTMGATE_HEALTH_URL", "GTMGATE_GATEWAY_URL"} {
		if u := getenv(k); u != "" {
			return u
		}
	}
	addr := getenv("GTMGATE_GATEWAY_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8081"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
