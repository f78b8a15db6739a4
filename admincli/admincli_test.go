package admincli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
	"go.yaml.in/yaml/v3"
)

// cli runs gtmgate admin against env's gateway.
type cli struct {
	t   *testing.T
	env map[string]string
	// http is the client, when not the default.
	http *http.Client
}

func (c cli) run(stdin string, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errb bytes.Buffer
	code = admincli.Run(c.t.Context(), admincli.Options{Args: args, Getenv: func(k string) string { return c.env[k] },
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, HTTP: c.http})
	return code, out.String(), errb.String()
}

func (c cli) ok(args ...string) string {
	c.t.Helper()
	code, out, errs := c.run("", args...)
	if code != admincli.ExitOK {
		c.t.Fatalf("gtmgate admin %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

func TestAdminCLI(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey}}

	// Tenants: list as a table that fits 80 columns, get, edit and put back.
	out := c.ok("tenants", "list")
	if !strings.HasPrefix(out, "ID") || !strings.Contains(out, "demo") {
		t.Fatalf("tenants list:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
	got := c.ok("tenants", "get", "demo")
	var tenant map[string]any
	if err := json.Unmarshal([]byte(got), &tenant); err != nil {
		t.Fatalf("tenants get: %v\n%s", err, got)
	}
	view, _ := tenant["tenant"].(map[string]any)
	if view["id"] != "demo" || tenant["mcp_servers"] == nil {
		t.Fatalf("tenants get: want demo with its MCP servers\n%s", got)
	}
	view["name"] = "Demo, renamed by the CLI"
	view["approval_policy"] = map[string]any{"categories": []string{"crm_write"}}
	file := filepath.Join(t.TempDir(), "demo.json")
	b, _ := json.Marshal(tenant)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c.ok("tenants", "put", "demo", file)
	if !strings.Contains(c.ok("tenants", "list"), "Demo, renamed by the CLI") {
		t.Fatal("the put tenant was not stored")
	}
	if code, _, errs := c.run("{", "tenants", "put", "demo", "-"); code != admincli.ExitUsage || !strings.Contains(errs, "not a JSON object") {
		t.Fatalf("bad JSON on stdin: exit %d %s", code, errs)
	}

	// The same tenant as YAML, from a .yaml file and from stdin.
	view["name"] = "Demo, from YAML"
	view["approval_policy"] = map[string]any{"categories": []string{"crm_write", "email_send"}}
	yamlTenant, err := yaml.Marshal(tenant)
	if err != nil {
		t.Fatal(err)
	}
	yamlFile := filepath.Join(t.TempDir(), "demo.yaml")
	if err := os.WriteFile(yamlFile, yamlTenant, 0o600); err != nil {
		t.Fatal(err)
	}
	c.ok("tenants", "put", "demo", yamlFile)
	var stored struct {
		Tenant struct {
			Name           string
			ApprovalPolicy struct{ Categories []string } `json:"approval_policy"`
		}
	}
	if err := json.Unmarshal([]byte(c.ok("tenants", "get", "demo")), &stored); err != nil ||
		stored.Tenant.Name != "Demo, from YAML" || strings.Join(stored.Tenant.ApprovalPolicy.Categories, ",") != "crm_write,email_send" {
		t.Fatalf("YAML tenant not stored: %v %+v", err, stored)
	}
	view["name"] = "Demo, YAML on stdin"
	view["approval_policy"] = map[string]any{"categories": []string{"crm_write"}}
	yamlTenant, _ = yaml.Marshal(view)
	if code, _, errs := c.run(string(yamlTenant), "tenants", "put", "demo", "-"); code != admincli.ExitOK {
		t.Fatalf("YAML on stdin: exit %d %s", code, errs)
	}
	if !strings.Contains(c.ok("tenants", "list"), "Demo, YAML on stdin") {
		t.Fatal("the YAML tenant from stdin was not stored")
	}
	for input, want := range map[string]string{
		"name: [unclosed\n":              "not a YAML mapping",
		"- a list\n":                     "not a YAML mapping",
		"name: x\nproviders: {1: one}\n": "JSON cannot carry",
	} {
		if code, _, errs := c.run(input, "tenants", "put", "demo", "-"); code != admincli.ExitUsage || !strings.Contains(errs, want) || strings.Contains(errs, "usage:") {
			t.Errorf("YAML %q: exit %d %s (want %q, without the usage text)", input, code, errs, want)
		}
	}

	// Tokens: issue (shown once), list, revoke; the issued token works until revoked.
	out = c.ok("tokens", "issue", "demo", "--label", "ci")
	token := strings.Fields(out)[1]
	if r := env.Tool(token, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "cli token"}); r.Status != 200 {
		t.Fatalf("issued token: %d %s", r.Status, r.Body)
	}
	var tokens struct {
		Tokens []struct{ ID, Label string }
	}
	if err := json.Unmarshal([]byte(c.ok("--output", "json", "tokens", "list", "demo")), &tokens); err != nil {
		t.Fatal(err)
	}
	var id string
	for _, tk := range tokens.Tokens {
		if tk.Label == "ci" {
			id = tk.ID
		}
	}
	c.ok("tokens", "revoke", "demo", id)
	if r := env.Tool(token, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "revoked"}); r.Status != 401 {
		t.Fatalf("revoked token: %d", r.Status)
	}

	// Approvals: a gated call listed, rejected with a reason; approve of a decided gate is refused.
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "create", "rationale": "cli gate",
		"properties": map[string]any{"email": "cli@example.com"}})
	approval := r.JSON(t)["approval_id"].(string)
	if out := c.ok("approvals", "list", "--status", "pending"); !strings.Contains(out, approval) {
		t.Fatalf("approvals list:\n%s", out)
	}
	if code, _, errs := c.run("", "approvals", "reject", approval); code != admincli.ExitUsage || !strings.Contains(errs, "--reason") {
		t.Fatalf("reject without a reason: exit %d %s", code, errs)
	}
	c.ok("approvals", "reject", approval, "--reason", "not today")
	if code, _, _ := c.run("", "approvals", "approve", approval); code != admincli.ExitRefused {
		t.Fatalf("approving a rejected gate: exit %d", code)
	}

	// Audit with filters, and follow: an entry made after the follow began is printed.
	if out := c.ok("audit", "--tenant", "demo", "--action", "crm_pipelines.list"); !strings.Contains(out, "crm_pipelines.list") {
		t.Fatalf("audit:\n%s", out)
	}
	ctx, cancel := context.WithCancel(t.Context())
	followed := &apptest.SyncBuffer{}
	done := make(chan int)
	go func() {
		done <- admincli.Run(ctx, admincli.Options{Args: []string{"audit", "--follow", "--interval", "20ms", "--action", "crm_contacts.list"},
			Getenv: func(k string) string { return c.env[k] }, Stdout: followed, Stderr: &apptest.SyncBuffer{}})
	}()
	env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list", "rationale": "followed"})
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(followed.String(), "crm_contacts.list") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != admincli.ExitOK || !strings.Contains(followed.String(), "crm_contacts.list") {
		t.Fatalf("follow: exit %d\n%s", code, followed.String())
	}

	// The global options work after the command too.
	if out := c.ok("tenants", "get", "demo", "--output", "json"); !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Fatalf("--output json after the command:\n%s", out)
	}
	if out := c.ok("tenants", "list", "--gateway-url="+env.GatewayURL, "--output=json"); !strings.Contains(out, `"demo"`) {
		t.Fatalf("--gateway-url= after the command:\n%s", out)
	}
	if code, _, errs := (cli{t: t}).run("", "bogus"); code != admincli.ExitUsage || !strings.Contains(errs, `unknown command "bogus"`) ||
		strings.Contains(errs, "no admin key:") {
		t.Errorf("bogus without a key: exit %d: %s", code, errs)
	}

	// Usage, errors and feedback lists answer as tables.
	if out := c.ok("usage", "demo"); !strings.HasPrefix(out, "TOOL") || !strings.Contains(out, "crm_pipelines") {
		t.Fatalf("usage:\n%s", out)
	}
	c.ok("errors", "list", "--tenant", "demo")
	c.ok("feedback", "list")

	// Exit codes.
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want int
	}{
		{c.env, []string{"tenants", "get", "nobody"}, admincli.ExitRefused},
		{c.env, []string{"tenants", "frobnicate"}, admincli.ExitUsage},
		{c.env, []string{"tokens", "revoke", "demo"}, admincli.ExitUsage},
		{map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL}, []string{"tenants", "list"}, admincli.ExitAuth},
		// A wrong command line is named as such before the missing key.
		{map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL}, []string{"bogus"}, admincli.ExitUsage},
		{map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL}, []string{"tokens", "revoke", "demo"}, admincli.ExitUsage},
		{map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": "wrong-key"}, []string{"tenants", "list"}, admincli.ExitAuth},
		{map[string]string{"GTMGATE_GATEWAY_URL": "http://127.0.0.1:1", "GTMGATE_ADMIN_KEY": "k"}, []string{"tenants", "list"}, admincli.ExitUnavailable},
	} {
		if code, _, errs := (cli{t: t, env: tc.env}).run("", tc.args...); code != tc.want {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.want, errs)
		}
	}
}
