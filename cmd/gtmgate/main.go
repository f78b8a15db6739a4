// Command gtmgate runs the gtmgate site, gateway and docs host.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/buildinfo"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/telemetry"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  gtmgate serve [flags]     run the site, gateway and docs listeners (gtmgate serve -h lists flags)
  gtmgate serve --check [flags]
                            validate the configuration as serve would and exit: "configuration ok" (0) or the error (2)
  gtmgate hash-key KEY      print the SHA-256 of an admin key, for ADMIN_API_KEY
  gtmgate admin COMMAND     call the admin API (gtmgate admin -h lists commands)
  gtmgate providers check [--tenant T]
                            one harmless read per provider account at the real provider; exit 5 when one cannot work
  gtmgate health [--gateway-url U] [--live]  query a running gateway's /health/ready (or /health/live); exit 0 on 200 (for container health checks)
  gtmgate version           print the version, commit and Go version
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "hash-key":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		sum := sha256.Sum256([]byte(args[1]))
		fmt.Fprintln(stdout, hex.EncodeToString(sum[:]))
		return 0
	case "health":
		return healthCheck(args[1:], stdout, stderr)
	case "admin", "providers":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		adminArgs := args[1:]
		if args[0] == "providers" {
			// gtmgate providers check … is gtmgate admin providers check ….
			adminArgs = args
		}
		return admincli.Run(ctx, admincli.Options{Args: adminArgs, Stdin: os.Stdin, Stdout: stdout, Stderr: stderr})
	case "version":
		bi := buildinfo.Get()
		commit := bi.Commit
		if commit == "" {
			commit = "unknown"
		} else if bi.Modified {
			commit += " (modified)"
		}
		fmt.Fprintf(stdout, "gtmgate %s\ncommit %s\n%s\n", bi.Version, commit, bi.GoVersion)
		return 0
	}
	fmt.Fprintf(stderr, "gtmgate: unknown command %q\n%s", args[0], usage)
	return 2
}

func serve(args []string, stdout, stderr io.Writer) int {
	cfg, err := config.Load(args, os.Environ())
	if errors.Is(err, flag.ErrHelp) {
		return 0 // the flags were listed, as asked
	}
	if err == nil {
		err = app.CheckConfig(cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gtmgate: configuration:", err)
		return 2
	}
	if cfg.Check {
		fmt.Fprintln(stdout, "configuration ok")
		return 0
	}
	logger := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Tracing is process-wide (the OpenTelemetry globals), so it is set up
	// here rather than per App.
	shutdownTracing, err := telemetry.Setup(ctx, buildinfo.Version)
	if err != nil {
		fmt.Fprintln(stderr, "gtmgate:", err)
		return 1
	}
	defer func() {
		fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdownTracing(fctx); err != nil {
			logger.Warn("tracing: flush on shutdown", "err", err)
		}
	}()
	if telemetry.Enabled() {
		logger.Info("tracing: exporting spans over OTLP/HTTP")
	}
	a, err := app.New(ctx, cfg, logger, buildinfo.Version)
	if err != nil {
		fmt.Fprintln(stderr, "gtmgate:", err)
		return 1
	}
	if err := a.Start(); err != nil {
		fmt.Fprintln(stderr, "gtmgate:", err)
		a.Close(context.Background())
		return 1
	}
	// Start-up (migrations, content trees, schemas) leaves garbage the
	// runtime would hand back to the OS only minutes later; hand it back
	// now, so an idle gateway's resident size is what it holds.
	debug.FreeOSMemory()
	announce(a, cfg, stdout)
	code := 0
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case err := <-a.Errors():
		logger.Error("listener failed", "err", err)
		code = 1
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := a.Close(shutdownCtx); err != nil {
		logger.Error("shutdown", "err", err)
		code = 1
	}
	logger.Info("stopped")
	return code
}

// announce prints what a newcomer needs once: the generated admin key and the
// demo tenant's token, with ready-to-run commands.
func announce(a *app.App, cfg config.Config, out io.Writer) {
	var b strings.Builder
	if a.AdminKey != "" {
		fmt.Fprintf(&b, "\nAdmin key (shown once; its SHA-256 is kept in %s/admin_key.sha256):\n  %s\n", cfg.DataDir, a.AdminKey)
	}
	if gw := a.Addr(app.SurfaceGateway); gw != "" && a.DemoToken != "" {
		fmt.Fprintf(&b, "\nDemo tenant %q token:\n  %s\n\nTry:\n", app.DemoTenant, a.DemoToken)
		fmt.Fprintf(&b, "  curl -s http://%s/api/v1/demo/crm -H 'Authorization: Bearer %s' \\\n    -d '{\"tool\":\"crm_contacts\",\"input\":{\"action\":\"list\",\"limit\":3,\"rationale\":\"try the gateway\"}}'\n", gw, a.DemoToken)
		fmt.Fprintf(&b, "  npx @modelcontextprotocol/inspector@2.12.0 --cli http://%s/mcp --transport http --header 'Authorization: Bearer %s' --method tools/list\n", gw, a.DemoToken)
	}
	addrs := map[string]string{}
	for _, s := range []string{app.SurfaceSite, app.SurfaceGateway, app.SurfaceDocs} {
		if addr := a.Addr(s); addr != "" {
			addrs[s] = addr
		}
	}
	b.WriteString(exports(addrs, a.DemoToken, a.AdminKey))
	for _, s := range []string{app.SurfaceSite, app.SurfaceGateway, app.SurfaceDocs} {
		if addr := addrs[s]; addr != "" {
			fmt.Fprintf(&b, "\n%-8s http://%s", s, addr)
		}
	}
	b.WriteString("\n\nready\n")
	fmt.Fprint(out, b.String())
}

// exports returns the lines that set the variables the docs' examples and
// gtmgate admin read (GTMGATE_GATEWAY_URL, GTMGATE_SITE_URL,
// GTMGATE_DOCS_URL, GTMGATE_TOKEN, GTMGATE_ADMIN_KEY), ready to paste into
// another terminal: those this start knows, from the listeners' addresses
// by surface, the demo token and a just generated admin key.
func exports(addrs map[string]string, demoToken, adminKey string) string {
	var vars []string
	for _, v := range []struct{ name, surface string }{
		{"GTMGATE_GATEWAY_URL", app.SurfaceGateway}, {"GTMGATE_SITE_URL", app.SurfaceSite}, {"GTMGATE_DOCS_URL", app.SurfaceDocs},
	} {
		if addr := addrs[v.surface]; addr != "" {
			vars = append(vars, v.name+"=http://"+addr)
		}
	}
	if demoToken != "" && addrs[app.SurfaceGateway] != "" {
		vars = append(vars, "GTMGATE_TOKEN="+demoToken)
	}
	if adminKey != "" && addrs[app.SurfaceGateway] != "" {
		vars = append(vars, "GTMGATE_ADMIN_KEY="+adminKey)
	}
	if len(vars) == 0 {
		return ""
	}
	return "\nFor the docs' examples and gtmgate admin, in another terminal:\n  export " + strings.Join(vars, "\n  export ") + "\n"
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
