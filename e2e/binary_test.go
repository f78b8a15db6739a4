// Package e2e starts the real gtmgate binary and talks to it with real
// clients: curl-like HTTP, the official MCP TypeScript SDK, the OpenAI npm
// client, and SIGKILL.
package e2e

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// adminKey is the admin key of every binary these tests start.
const adminKey = "e2e-admin-key-0123456789"

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds cmd/gtmgate once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gtmgate-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "gtmgate")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/gtmgate").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// process is a running gtmgate binary.
type process struct {
	cmd       *exec.Cmd
	dataDir   string
	gateway   string
	site      string
	docs      string
	demoToken string
	stderr    *strings.Builder
}

var (
	addrLine  = regexp.MustCompile(`^(site|gateway|docs)\s+(http://\S+)`)
	tokenLine = regexp.MustCompile(`^\s+(demo_[0-9a-f]+)\s*$`)
)

// freeLoopbackAddr is a loopback address with a port free now, for a
// listener whose URL must be known before it listens.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs `gtmgate serve --demo` on port 0 listeners in dataDir and waits
// until it has printed its addresses.
func start(t *testing.T, dataDir string, env ...string) *process {
	t.Helper()
	p, err := launch(t, dataDir, env)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// startKnownGateway is start with the gateway on a port chosen before it
// listens, for tests whose URLs (OAuth metadata, redirect URIs, the demo
// IdP) name GATEWAY_URL. The port is free when chosen but another process
// may take it before gtmgate binds it, so a start refused with "address
// already in use" is tried again on a new port.
func startKnownGateway(t *testing.T, dataDir string, env ...string) *process {
	t.Helper()
	for attempt := 1; ; attempt++ {
		p, err := launch(t, dataDir, append(slices.Clip(env), "GTMGATE_GATEWAY_ADDR="+freeLoopbackAddr(t)))
		if err == nil {
			return p
		}
		if attempt == 5 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatal(err)
		}
		t.Logf("start again on another port: %v", err)
	}
}

// launch starts the binary and waits for "ready", or for it to exit first.
func launch(t *testing.T, dataDir string, env []string) (*process, error) {
	t.Helper()
	sum := sha256.Sum256([]byte(adminKey))
	args := []string{"serve", "--demo", "--site-addr", "127.0.0.1:0", "--docs-addr", "127.0.0.1:0"}
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GTMGATE_GATEWAY_ADDR=") }) {
		args = append(args, "--gateway-addr", "127.0.0.1:0")
	}
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), "GTMGATE_DATA_DIR="+dataDir, "ADMIN_API_KEY="+hex.EncodeToString(sum[:]), "GTMGATE_LOG_LEVEL=warn")
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, dataDir: dataDir, stderr: &strings.Builder{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stdout)
		closed := false
		for sc.Scan() {
			line := sc.Text()
			if m := tokenLine.FindStringSubmatch(line); m != nil {
				p.demoToken = m[1]
			}
			if m := addrLine.FindStringSubmatch(line); m != nil {
				switch m[1] {
				case "site":
					p.site = m[2]
				case "gateway":
					p.gateway = m[2]
				case "docs":
					p.docs = m[2]
				}
			}
			if line == "ready" && !closed {
				close(ready)
				closed = true
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case <-ready:
		return p, nil
	case <-exited:
		select {
		case <-ready:
			return p, nil
		default:
		}
		// stdout closed before "ready": the process is exiting; wait for
		// it so its whole stderr is read.
		cmd.Wait()
		return nil, fmt.Errorf("gtmgate exited before it was ready (%v): %s", cmd.ProcessState, p.stderr.String())
	case <-time.After(60 * time.Second):
		return nil, fmt.Errorf("gtmgate did not start: %s", p.stderr.String())
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *process) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(os.Interrupt)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gtmgate exited with %v: %s", err, p.stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("gtmgate did not stop on SIGINT")
	}
}
