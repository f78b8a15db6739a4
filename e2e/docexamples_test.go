package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/docexamples"
)

// docPages are the pages whose shell examples the docs tests run: the
// README and every page of the docs host.
func docPages(t *testing.T) map[string][]docexamples.Example {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "content", "docstree", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "README.md"))
	pages := map[string][]docexamples.Example{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		ex, err := docexamples.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(ex) > 0 {
			pages[name] = ex
		}
	}
	return pages
}

// literalAddress is a listener address written out where the examples'
// variables belong.
var literalAddress = regexp.MustCompile(`(127\.0\.0\.1|localhost):808[0-2]`)

// curlWrapper stands in for curl on the examples' PATH: it runs the real
// curl, passes the body on, and records each call's status and body in
// $DOCEX_DIR so the test can check them.
const curlWrapper = `#!/usr/bin/env bash
n=$(( $(cat "$DOCEX_DIR/calls" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$DOCEX_DIR/calls"
code=$("$DOCEX_REAL_CURL" -o "$DOCEX_DIR/body.$n" -w '%{http_code}' "$@")
rc=$?
cat "$DOCEX_DIR/body.$n" 2>/dev/null
echo "$code" > "$DOCEX_DIR/status.$n"
exit $rc
`

// TestDocsExamples runs every shell example of the README and the docs
// host, in page order, against a fresh ` + "`serve --demo`" + ` per page,
// with the variables the quickstart defines (GTMGATE_GATEWAY_URL,
// GTMGATE_SITE_URL, GTMGATE_DOCS_URL, GTMGATE_TOKEN, GTMGATE_ADMIN_KEY) and
// the gtmgate binary on the PATH. Each example must exit 0, every curl in it
// answer 2xx or 3xx (its last one expect=NNN when marked), and the JSON
// answer the page shows after it must match the real one: every value it
// shows, by type and value, with the elisions docexamples.CheckAnswer
// allows.
// Variables an example sets are kept for the page's later examples, as in
// a reader's terminal. Examples marked not-run are counted and listed with
// their reasons.
func TestDocsExamples(t *testing.T) {
	pages := docPages(t)
	realCurl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "curl"), []byte(curlWrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	sort.Strings(names)
	var ran, elsewhere int
	var marked []string
	for _, name := range names {
		examples := pages[name]
		var runnable []docexamples.Example
		for _, e := range examples {
			switch {
			case e.NotRun != "":
				marked = append(marked, fmt.Sprintf("%s: %s", e, e.NotRun))
			case e.RunBy != "":
				elsewhere++
			default:
				runnable = append(runnable, e)
			}
		}
		if len(runnable) == 0 {
			continue
		}
		ran += len(runnable)
		t.Run(name, func(t *testing.T) {
			// A known gateway port: the demo's sandbox IdP (the People
			// page's examples) needs GATEWAY_URL before the gateway listens.
			p := startKnownGateway(t, t.TempDir())
			home := t.TempDir()
			env := append(os.Environ(),
				"HOME="+home, "DOCEX_REAL_CURL="+realCurl,
				"PATH="+bin+string(os.PathListSeparator)+filepath.Dir(binary(t))+string(os.PathListSeparator)+os.Getenv("PATH"),
				"GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_SITE_URL="+p.site, "GTMGATE_DOCS_URL="+p.docs,
				"GTMGATE_TOKEN="+p.demoToken, "GTMGATE_ADMIN_KEY="+adminKey)
			state := filepath.Join(home, "state")
			base := filepath.Join(home, "base")
			// DOCEX_DIR is each example's own: kept in the page's state, it
			// would send later examples' calls to the first one's directory
			// and leave their statuses and answers unchecked.
			baseCmd := exec.Command("bash", "-c", "compgen -v > "+strconv.Quote(base))
			baseCmd.Env = append(os.Environ(), "DOCEX_DIR=")
			if out, err := baseCmd.CombinedOutput(); err != nil {
				t.Fatalf("bash: %v %s", err, out)
			}
			os.WriteFile(state, nil, 0o644)
			for _, e := range runnable {
				runExample(t, e, env, home, state, base)
			}
		})
	}
	t.Logf("docs examples: %d run here, %d run by the tests that own them (tested:), %d marked not run", ran, elsewhere, len(marked))
	for _, m := range marked {
		t.Logf("  not run: %s", m)
	}
}

// runExample runs one example in bash with the page's variables so far,
// then keeps the variables it set.
func runExample(t *testing.T, e docexamples.Example, env []string, home, state, base string) {
	t.Helper()
	if literalAddress.MatchString(e.Script) {
		t.Errorf("%s writes a listener address out; use $GTMGATE_GATEWAY_URL, $GTMGATE_SITE_URL or $GTMGATE_DOCS_URL", e)
		return
	}
	dir, err := os.MkdirTemp(home, "example")
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("set -eo pipefail\nsource %q\ntrap 'for v in $(compgen -v); do grep -qx \"$v\" %q || declare -p \"$v\" 2>/dev/null; done > %q' EXIT\n%s\n",
		state, base, state+".new", e.Script)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	// An example that hangs is stopped with everything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = home
	cmd.Env = append(env, "DOCEX_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if b, rerr := os.ReadFile(state + ".new"); rerr == nil {
		os.WriteFile(state, b, 0o644)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s\n--- example:\n%s\n--- output:\n%s", e, fmt.Sprintf(format, args...), e.Script, truncate(string(out), 3000))
	}
	if err != nil {
		fail("exited with %v", err)
		return
	}
	calls, _ := strconv.Atoi(strings.TrimSpace(readFile(filepath.Join(dir, "calls"))))
	for i := 1; i <= calls; i++ {
		code, _ := strconv.Atoi(strings.TrimSpace(readFile(filepath.Join(dir, fmt.Sprintf("status.%d", i)))))
		switch {
		case i == calls && e.Expect != 0:
			if code != e.Expect {
				fail("its last curl answered %d, the page expects %d", code, e.Expect)
				return
			}
		case code < 200 || code >= 400:
			fail("curl %d of %d answered %d", i, calls, code)
			return
		}
	}
	if e.Answer != "" {
		got := []byte(out)
		if calls > 0 {
			got = []byte(readFile(filepath.Join(dir, fmt.Sprintf("body.%d", calls))))
		}
		if err := docexamples.CheckAnswer([]byte(e.Answer), got); err != nil {
			fail("the answer on the page differs from the server's: %v\n--- the server's answer:\n%s", err, truncate(string(got), 3000))
		}
	}
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
