// Command floors serves the reference points gtmgate's benchmarks compare
// against, each on its own loopback port, and prints "name URL" lines and
// then "ready":
//
//	hubspot        the HubSpot sandbox (provider/hubspot.NewSandbox), the
//	               gateway's upstream in the REST and MCP scenarios
//	proxy-hubspot  a bare httputil.ReverseProxy in front of it
//	chat           a fake OpenAI-compatible model gateway (base URL …/v1)
//	proxy-chat     a bare httputil.ReverseProxy in front of it
//	mcp            a bare go-sdk MCP server (stateless, JSON responses) with
//	               one echo tool
//	proxy          with -proxy URL: a bare ReverseProxy to that upstream
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
	proxyTo := fs.String("proxy", "", "also serve a bare ReverseProxy to this upstream URL")
	chunks := fs.Int("chat-chunks", 20, "chunks of a streamed chat completion")
	chunkDelay := fs.Duration("chat-chunk-delay", 0, "pause before each streamed chunk")
	chatKey := fs.String("chat-key", "", "API key the fake chat upstream requires (empty: any)")
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
	serve := func(name, suffix string, h http.Handler) (string, error) {
		srv, base, err := listen(h)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		servers = append(servers, srv)
		fmt.Fprintf(out, "%-14s %s%s\n", name, base, suffix)
		return base, nil
	}
	hub, err := serve("hubspot", "", hubspot.NewSandbox().Handler)
	if err != nil {
		return err
	}
	if _, err := serve("proxy-hubspot", "", bareProxy(hub)); err != nil {
		return err
	}
	chat, err := serve("chat", "/v1", newChatUpstream(*chunks, *chunkDelay, *chatKey))
	if err != nil {
		return err
	}
	if _, err := serve("proxy-chat", "/v1", bareProxy(chat)); err != nil {
		return err
	}
	if _, err := serve("mcp", "/mcp", newMCPFloor()); err != nil {
		return err
	}
	if *proxyTo != "" {
		if _, err := serve("proxy", "", bareProxy(strings.TrimRight(*proxyTo, "/"))); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "ready")
	<-ctx.Done()
	return nil
}

// listen serves h on a fresh loopback port.
func listen(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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
