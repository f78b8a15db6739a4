package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// adminCLI runs `gtmgate admin ARGS` as a separate process, as an operator's
// script would, and returns its exit code and output.
func adminCLI(t *testing.T, env []string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"admin"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("gtmgate admin: %v", err)
	}
	return code, out.String(), errb.String()
}

// TestAdminCLIAgainstBinary: the CLI's exit codes, key sources and commands,
// run as the built binary against a running gateway.
func TestAdminCLIAgainstBinary(t *testing.T) {
	p := start(t, t.TempDir())
	keyFile := filepath.Join(t.TempDir(), "admin.key")
	if err := os.WriteFile(keyFile, []byte(adminKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"GTMGATE_GATEWAY_URL=" + p.gateway, "GTMGATE_ADMIN_KEY="}
	withKey := []string{"GTMGATE_GATEWAY_URL=" + p.gateway, "GTMGATE_ADMIN_KEY=" + adminKey}
	ok := func(stdin string, args ...string) string {
		t.Helper()
		code, out, errs := adminCLI(t, withKey, stdin, args...)
		if code != 0 {
			t.Fatalf("gtmgate admin %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
		return out
	}

	// The documented exit codes.
	for _, c := range []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"no key", base, []string{"tenants", "list"}, 3, "GTMGATE_ADMIN_KEY"},
		{"wrong key", []string{"GTMGATE_GATEWAY_URL=" + p.gateway, "GTMGATE_ADMIN_KEY=not-the-key"}, []string{"tenants", "list"}, 3, ""},
		{"unknown command", withKey, []string{"tenants", "explode"}, 2, "usage"},
		{"bad output", withKey, []string{"--output", "xml", "tenants", "list"}, 2, "usage"},
		{"unknown tenant", withKey, []string{"tenants", "get", "no-such-tenant"}, 1, "NOT_FOUND"},
		{"unreachable", []string{"GTMGATE_GATEWAY_URL=http://127.0.0.1:1", "GTMGATE_ADMIN_KEY=" + adminKey}, []string{"tenants", "list"}, 4, ""},
	} {
		code, _, errs := adminCLI(t, c.env, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d %q, want exit %d with %q", c.name, code, errs, c.code, c.want)
		}
		if strings.Contains(errs, adminKey) {
			t.Errorf("%s: the admin key is printed: %s", c.name, errs)
		}
	}
	// The key from a file, with --gateway-url instead of the environment.
	code, out, errs := adminCLI(t, base, "", "--gateway-url", p.gateway, "--admin-key-file", keyFile, "tenants", "list")
	if code != 0 || !strings.Contains(out, "demo") {
		t.Fatalf("--admin-key-file: exit %d %s %s", code, out, errs)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("tenants list: a line wider than 80 columns: %q", line)
		}
	}

	// A tenant created from YAML on stdin, then read back as JSON.
	ok("name: Acme from a script\nstatus: active\nallowed_models: [gpt-4o-mini]\n", "tenants", "put", "acme-cli", "-")
	var acme struct{ Tenant map[string]any }
	if err := json.Unmarshal([]byte(ok("", "tenants", "get", "acme-cli")), &acme); err != nil || acme.Tenant["name"] != "Acme from a script" {
		t.Fatalf("tenant from YAML: %v %v", err, acme.Tenant)
	}

	// Gate crm_write on demo through the CLI (get, edit, put back), hold a
	// call, approve it with the CLI; the agent then sees it executed.
	var demo struct {
		Tenant map[string]any `json:"tenant"`
	}
	if err := json.Unmarshal([]byte(ok("", "tenants", "get", "demo")), &demo); err != nil {
		t.Fatal(err)
	}
	demo.Tenant["approval_policy"] = map[string]any{"categories": []string{"crm_write"}}
	b, _ := json.Marshal(demo)
	ok(string(b), "tenants", "put", "demo", "-")
	token := strings.Fields(ok("", "tokens", "issue", "demo", "--label", "cli-e2e"))[1]
	var held struct {
		ApprovalID string `json:"approval_id"`
	}
	if st := call(t, p, "POST", "/api/v1/demo/crm", token, map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "create",
		"rationale": "held for the CLI", "properties": map[string]any{"email": "cli-e2e@example.com"}}}, &held); st != 202 {
		t.Fatalf("gated call: %d", st)
	}
	if out := ok("", "approvals", "list", "--status", "pending"); !strings.Contains(out, held.ApprovalID) {
		t.Fatalf("approvals list:\n%s", out)
	}
	ok("", "approvals", "approve", held.ApprovalID)
	var status struct{ Result map[string]any }
	call(t, p, "POST", "/api/v1/demo/agents", token, map[string]any{"tool": "approval_status",
		"input": map[string]any{"approval_id": held.ApprovalID, "rationale": "did it run"}}, &status)
	if status.Result["status"] != "executed" {
		t.Fatalf("approval_status after the CLI approved: %v", status.Result)
	}

	// A failed call: listed by errors list, replayed by id.
	call(t, p, "POST", "/api/v1/demo/crm", token, map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "get",
		"id": "999999", "rationale": "a deal that does not exist"}}, nil)
	var ledger struct{ Entries []struct{ ID string } }
	if err := json.Unmarshal([]byte(ok("", "--output", "json", "errors", "list", "--tenant", "demo")), &ledger); err != nil || len(ledger.Entries) == 0 {
		t.Fatalf("errors list: %v %+v", err, ledger)
	}
	if out := ok("", "errors", "list", "--tenant", "demo"); !strings.Contains(out, ledger.Entries[0].ID) {
		t.Fatalf("errors list table:\n%s", out)
	}
	var replay struct {
		EntryID   string `json:"entry_id"`
		RequestID string `json:"request_id"`
		OK        *bool
	}
	if err := json.Unmarshal([]byte(ok("", "errors", "replay", ledger.Entries[0].ID)), &replay); err != nil ||
		replay.EntryID != ledger.Entries[0].ID || replay.RequestID == "" || replay.OK == nil || *replay.OK {
		t.Fatalf("errors replay (the deal still does not exist, so the replay fails too): %v %+v", err, replay)
	}

	// The audit shows what the CLI did, under the admin source.
	if out := ok("", "audit", "--source", "admin", "--action", "admin.approvals.approve.post"); !strings.Contains(out, "approvals.approve") {
		t.Fatalf("audit of the CLI's approval:\n%s", out)
	}
	// Revoked through the CLI, the token stops working.
	var tokens struct {
		Tokens []struct{ ID, Label string }
	}
	if err := json.Unmarshal([]byte(ok("", "--output", "json", "tokens", "list", "demo")), &tokens); err != nil {
		t.Fatal(err)
	}
	for _, tk := range tokens.Tokens {
		if tk.Label == "cli-e2e" {
			ok("", "tokens", "revoke", "demo", tk.ID)
		}
	}
	if st := call(t, p, "POST", "/api/v1/demo/crm", token, map[string]any{"tool": "crm_pipelines", "input": map[string]any{"action": "list",
		"rationale": "revoked"}}, nil); st != 401 {
		t.Fatalf("revoked token: %d", st)
	}
}
