// Command floors serves the reference points gtmgate's benchmarks compare
// against, each on its own loopback port, and prints "name URL" lines and
// then "ready". By default it serves the upstreams:
//
//	hubspot        the HubSpot sandbox (provider/hubspot.NewSandbox), the
//	               gateway's upstream in the REST and MCP scenarios
//	chat           a fake OpenAI-compatible model gateway (base URL …/v1)
//	mcp            a bare go-sdk MCP server (stateless, JSON responses) with
//	               tools echo and echo_structured (the federated scenario's)
//
// With -proxy NAME=URL (repeatable) it serves only bare
// httputil.ReverseProxy floors, one per flag, named NAME, and with
// -mcp-hubspot URL the built-in MCP call's floor, "mcp-hubspot": a bare
// go-sdk server whose crm_pipelines tool GETs the HubSpot sandbox at URL.
// The bench runs them in a process of their own, so that each floor has
// the same shape as gtmgate: client, then a separate process, then the
// upstream's process.
//
// With -static DIR it serves only "static": the files of DIR, read into
// memory at start, through a bare net/http handler that sets Content-Type
// and writes the bytes. It is the site's Go floor: what net/http itself
// costs for the bytes gtmgate's site and nginx serve.
//
// It runs until interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gtmgate/gtmgate/provider/hubspot"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "floors:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("floors", flag.ContinueOnError)
	var proxies []string
	fs.Func("proxy", "serve only bare ReverseProxy floors: NAME=URL, repeatable", func(v string) error {
		if name, u, ok := strings.Cut(v, "="); !ok || name == "" || u == "" {
			return fmt.Errorf("%q is not NAME=URL", v)
		}
		proxies = append(proxies, v)
		return nil
	})
	mcpHubSpot := fs.String("mcp-hubspot", "", "with -proxy: also serve the bare go-sdk server whose tool calls the HubSpot sandbox at this URL")
	static := fs.String("static", "", "serve only the files of this directory from memory (the site's Go floor)")
	chunks := fs.Int("chat-chunks", 20, "chunks of a streamed chat completion")
	chunkDelay := fs.Duration("chat-chunk-delay", 0, "pause before each streamed chunk")
	chatKey := fs.String("chat-key", "", "API key the fake chat upstream requires (empty: any)")
	addr := fs.String("addr", "127.0.0.1:0", "listen address when one floor is served (-static, or one -proxy)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var servers []*http.Server
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	// Each mode serves its own set of floors; all print "name URL" lines and
	// then "ready", and run until interrupted.
	type floor struct {
		name, suffix string
		h            http.Handler
	}
	var floors []floor
	switch {
	case *static != "":
		h, err := staticFloor(*static)
		if err != nil {
			return err
		}
		floors = append(floors, floor{"static", "", h})
	case len(proxies) > 0:
		for _, p := range proxies {
			name, u, _ := strings.Cut(p, "=")
			floors = append(floors, floor{name, "", bareProxy(strings.TrimRight(u, "/"))})
		}
		if *mcpHubSpot != "" {
			floors = append(floors, floor{"mcp-hubspot", "/mcp", newMCPUpstreamFloor(*mcpHubSpot)})
		}
	default:
		floors = append(floors, floor{"hubspot", "", hubspot.NewSandbox().Handler},
			floor{"chat", "/v1", newChatUpstream(*chunks, *chunkDelay, *chatKey)}, floor{"mcp", "/mcp", newMCPFloor()},
			floor{"wide_mcp", "/mcp", newWideMCP()})
	}
	if *addr != "127.0.0.1:0" && len(floors) != 1 {
		return fmt.Errorf("-addr needs exactly one floor (-static, or one -proxy)")
	}
	for _, f := range floors {
		srv, base, err := listen(f.h, *addr)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		servers = append(servers, srv)
		fmt.Fprintf(out, "%-14s %s%s\n", f.name, base, f.suffix)
	}
	fmt.Fprintln(out, "ready")
	<-ctx.Done()
	return nil
}

// listen serves h on addr (a fresh loopback port for "127.0.0.1:0").
func listen(h http.Handler, addr string) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second,
		ErrorLog: log.New(os.Stderr, "floors: ", 0)}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "floors: serve:", err)
		}
	}()
	return srv, "http://" + ln.Addr().String(), nil
}

// bareProxy is the pass-through floor: the standard library's reverse proxy
// with nothing added but immediate flushing, so streams pass as they come.
func bareProxy(upstream string) http.Handler {
	u, err := url.Parse(upstream)
	if err != nil {
		panic(fmt.Sprintf("floors: upstream %q: %v", upstream, err))
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	p.Transport = &http.Transport{Proxy: nil, MaxIdleConns: 512, MaxIdleConnsPerHost: 512,
		IdleConnTimeout: 90 * time.Second, DisableCompression: true}
	return p
}
