package admincli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestToolsetsCLI: a toolset is put from YAML on stdin and from a JSON
// file, listed as a table, read and put back under another name, and
// refused when invalid; a token issued with --toolset is limited to it,
// and the toolset cannot be deleted until that token is revoked.
func TestToolsetsCLI(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey}}

	if out := c.ok("toolsets", "list", "demo"); strings.TrimSpace(out) != "NAME  MODE  ALLOW  DENY  ACCOUNTS" {
		t.Fatalf("list of no toolsets:\n%s", out)
	}

	// Created from YAML on stdin, replaced from a JSON file.
	yamlSet := "description: Meeting prep\nallow: [crm_*, calendar_*]\nread_only: true\naccounts:\n  google_calendar: [primary]\n"
	code, out, errs := c.run(yamlSet, "toolsets", "put", "demo", "meeting-prep", "-")
	if code != admincli.ExitOK || !strings.Contains(out, `"created": true`) {
		t.Fatalf("put from YAML: exit %d %s%s", code, out, errs)
	}
	file := filepath.Join(t.TempDir(), "meeting-prep.json")
	jsonSet := `{"description": "Prepares meetings: reads the CRM and one calendar", "allow": ["crm_*", "calendar_*"],
		"deny": ["crm_notes"], "read_only": true, "accounts": {"google_calendar": ["primary"]}}`
	if err := os.WriteFile(file, []byte(jsonSet), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := c.ok("toolsets", "put", "demo", "meeting-prep", file); !strings.Contains(out, `"created": false`) {
		t.Fatalf("replace from a file:\n%s", out)
	}

	// get prints the toolset; put takes that answer back as is.
	got := c.ok("toolsets", "get", "demo", "meeting-prep")
	var view struct {
		Name    string
		Toolset struct {
			Deny     []string
			ReadOnly bool `json:"read_only"`
		}
	}
	if err := json.Unmarshal([]byte(got), &view); err != nil || view.Name != "meeting-prep" || !view.Toolset.ReadOnly ||
		strings.Join(view.Toolset.Deny, ",") != "crm_notes" {
		t.Fatalf("get: %v\n%s", err, got)
	}
	if code, out, errs := c.run(got, "toolsets", "put", "demo", "prep-copy", "-"); code != admincli.ExitOK || !strings.Contains(out, `"created": true`) {
		t.Fatalf("get's answer put back: exit %d %s%s", code, out, errs)
	}

	out = c.ok("toolsets", "list", "demo")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "meeting-prep") || !strings.HasPrefix(lines[2], "prep-copy") {
		t.Fatalf("list, by name:\n%s", out)
	}
	for _, want := range []string{"read-only", "crm_* calendar_*", "crm_notes", "google_calendar:primary"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("list's line lacks %q:\n%s", want, out)
		}
	}
	for _, line := range lines {
		if utf8.RuneCountInString(line) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
	var listed struct{ Toolsets map[string]any }
	if err := json.Unmarshal([]byte(c.ok("toolsets", "list", "demo", "--output", "json")), &listed); err != nil || len(listed.Toolsets) != 2 {
		t.Fatalf("list --output json: %v %v", err, listed)
	}
	if out := c.ok("toolsets", "delete", "demo", "prep-copy"); !strings.Contains(out, "toolset prep-copy of tenant demo deleted") {
		t.Fatalf("delete:\n%s", out)
	}

	// Refusals: the gateway's validation (exit 1), bad input or command lines (exit 2).
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        int
		mention     string
	}{
		{"unknown tool", `{"allow": ["crm_dealz"]}`, []string{"put", "demo", "x", "-"}, admincli.ExitRefused, "unknown tool"},
		{"account not the tenant's", `{"allow": ["*"], "accounts": {"google_calendar": ["bob"]}}`, []string{"put", "demo", "x", "-"},
			admincli.ExitRefused, "not one of the tenant's google_calendar accounts"},
		{"bad name", `{"allow": ["*"]}`, []string{"put", "demo", "Meeting Prep", "-"}, admincli.ExitRefused, "VALIDATION_ERROR"},
		{"not JSON", `{`, []string{"put", "demo", "x", "-"}, admincli.ExitUsage, "not a JSON object"},
		{"no file", "", []string{"put", "demo", "x"}, admincli.ExitUsage, "toolsets put takes TENANT NAME FILE"},
		{"no name", "", []string{"get", "demo"}, admincli.ExitUsage, "toolsets get takes TENANT NAME"},
		{"unknown verb", "", []string{"frob", "demo"}, admincli.ExitUsage, `unknown command "toolsets frob"`},
		{"no such toolset", "", []string{"get", "demo", "nope"}, admincli.ExitRefused, "NOT_FOUND"},
	} {
		if code, _, errs := c.run(tc.stdin, append([]string{"toolsets"}, tc.args...)...); code != tc.want || !strings.Contains(errs, tc.mention) {
			t.Errorf("%s: exit %d %s, want %d mentioning %q", tc.name, code, errs, tc.want, tc.mention)
		}
	}

	// A token issued with --toolset: its agent reads the CRM, and nothing else.
	if code, _, errs := c.run("", "tokens", "issue", "demo", "--toolset", "nope"); code != admincli.ExitRefused || !strings.Contains(errs, `toolset "nope"`) {
		t.Fatalf("issue with an unknown toolset: exit %d %s", code, errs)
	}
	if code, _, errs := c.run("", "tokens", "issue", "demo", "--person", "rep@demo.example"); code != admincli.ExitRefused || !strings.Contains(errs, "nobody who has signed in") {
		t.Fatalf("issue for someone who never signed in: exit %d %s", code, errs)
	}
	if code, _, errs := c.run("", "connect-link", "demo", "gmail", "--person", "rep@demo.example"); code != admincli.ExitRefused || !strings.Contains(errs, "nobody who has signed in") {
		t.Fatalf("a link for someone who never signed in: exit %d %s", code, errs)
	}
	out = c.ok("tokens", "issue", "demo", "--label", "prep", "--toolset", "meeting-prep")
	token := strings.Fields(out)[1]
	if !strings.Contains(out, "limited to toolset meeting-prep") {
		t.Fatalf("issue --toolset:\n%s", out)
	}
	if r := env.Tool(token, "demo", "crm", "crm_deals", map[string]any{"action": "list", "rationale": "cli toolset"}); r.Status != 200 {
		t.Fatalf("an allowed call: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(token, "demo", "email", "email_threads", map[string]any{"action": "list", "rationale": "cli toolset"}); r.Status != 403 ||
		!strings.Contains(string(r.Body), `toolset \"meeting-prep\" does not allow email_threads.list`) {
		t.Fatalf("a call outside the toolset: %d %s", r.Status, r.Body)
	}
	out = c.ok("tokens", "list", "demo")
	if !strings.Contains(out, "TOOLSET") || !strings.Contains(out, "meeting-p") {
		t.Fatalf("tokens list shows no toolset:\n%s", out)
	}

	// The toolset is kept while the token uses it.
	if code, _, errs := c.run("", "toolsets", "delete", "demo", "meeting-prep"); code != admincli.ExitRefused || !strings.Contains(errs, "CONFLICT") {
		t.Fatalf("delete of a used toolset: exit %d %s", code, errs)
	}
	var tokens struct {
		Tokens []struct{ ID, Label string }
	}
	if err := json.Unmarshal([]byte(c.ok("tokens", "list", "demo", "--output", "json")), &tokens); err != nil {
		t.Fatal(err)
	}
	for _, tk := range tokens.Tokens {
		if tk.Label == "prep" {
			c.ok("tokens", "revoke", "demo", tk.ID)
		}
	}
	if out := c.ok("toolsets", "delete", "demo", "meeting-prep", "--output", "json"); !strings.Contains(out, `"deleted": true`) {
		t.Fatalf("delete --output json:\n%s", out)
	}
	if code, _, _ := c.run("", "toolsets", "get", "demo", "meeting-prep"); code != admincli.ExitRefused {
		t.Fatalf("get of a deleted toolset: exit %d", code)
	}
}
