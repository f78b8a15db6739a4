package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecondReplicaWithAnotherKeyRefusesToStart starts the real binary twice
// on one store with different encryption keys: on PostgreSQL the way the
// testers did (no GTMGATE_ENCRYPTION_KEY, so each replica generates its own
// into its data dir), and on one SQLite data dir with a key set that is not
// the generated one. The second start exits non-zero with one line naming
// GTMGATE_ENCRYPTION_KEY and what to do; the first keeps serving.
func TestSecondReplicaWithAnotherKeyRefusesToStart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) (firstDir, secondDir string, firstEnv, secondEnv []string)
		says  string
	}{
		{"postgres, generated keys", func(t *testing.T) (string, string, []string, []string) {
			adminURL, db := testDatabase(t)
			env := []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), db)}
			return t.TempDir(), t.TempDir(), env, env
		}, "uses the key generated into"},
		{"sqlite, one data dir", func(t *testing.T) (string, string, []string, []string) {
			dir := t.TempDir()
			return dir, dir, nil, []string{"GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("5a", 32)}
		}, "it came from GTMGATE_ENCRYPTION_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			firstDir, secondDir, firstEnv, secondEnv := tc.setup(t)
			first := start(t, firstDir, firstEnv...)
			if st := toolCall(t, first, "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "key e2e"}); st != 200 {
				t.Fatalf("first replica: call answered %d", st)
			}
			if secondDir == firstDir {
				// One process serves from a data directory at a time (its
				// lock): the second starts once the first has stopped.
				first.stop(t)
			}
			code, stderr := startRefused(t, secondDir, secondEnv...)
			t.Logf("second replica exited %d: %s", code, stderr)
			if code == 0 {
				t.Fatal("the second replica exited 0")
			}
			line := lastLine(stderr)
			for _, want := range []string{"GTMGATE_ENCRYPTION_KEY", tc.says, "first replica", "encryption.key"} {
				if !strings.Contains(line, want) {
					t.Errorf("refusal %q does not say %q", line, want)
				}
			}
			if key, err := os.ReadFile(filepath.Join(firstDir, "encryption.key")); err == nil && strings.Contains(stderr, strings.TrimSpace(string(key))) {
				t.Error("the refusal shows the first replica's key")
			}
			if secondDir == firstDir {
				first = start(t, firstDir, firstEnv...) // the refused one changed nothing
			}
			if st := toolCall(t, first, "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "key e2e"}); st != 200 {
				t.Fatalf("first replica after the refusal: call answered %d", st)
			}
			first.stop(t)
		})
	}
}

// startRefused runs `gtmgate serve --demo` in dataDir expecting it to exit
// before it is ready; it returns the exit code and stderr.
func startRefused(t *testing.T, dataDir string, env ...string) (int, string) {
	t.Helper()
	sum := sha256.Sum256([]byte(adminKey))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "serve", "--demo", "--site-addr", "127.0.0.1:0", "--docs-addr", "127.0.0.1:0", "--gateway-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "GTMGATE_DATA_DIR="+dataDir, "ADMIN_API_KEY="+hex.EncodeToString(sum[:]), "GTMGATE_LOG_LEVEL=warn")
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run: %v (stdout %s)", err, out)
	}
	if strings.Contains(string(out), "\nready") || strings.HasPrefix(string(out), "ready") {
		t.Errorf("the refused replica printed ready: %s", out)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
