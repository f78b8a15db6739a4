package console_test

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestConsoleMCPChanges: a listing that changes a destructive tool to
// read-only shows "1 change waiting" on the tenant page and, on the
// server's page, a side-by-side diff with its flags and the hash in a
// hidden field; a stale hash is refused, the change shown again; accepting
// serves the new description while the gate is kept.
func TestConsoleMCPChanges(t *testing.T) {
	mc := startMCPConsole(t)
	if status, body := mc.admin("PUT", "/admin/tenants/acme/mcp-servers/slack",
		`{"url":"https://mcp.example.com/mcp","auth":{"kind":"bearer","token":"xoxb-console-secret"}}`); status != 201 {
		t.Fatalf("put server: %d %s", status, body)
	}
	_, page := mc.page("/console/tenants/acme/mcp-servers/slack")
	if !strings.Contains(page, `id="changes"`) || !strings.Contains(page, "None: every tool this server lists is served as accepted.") {
		t.Fatalf("server page before a change:\n%s", page)
	}
	mc.up.mu.Lock()
	mc.up.changed = true
	mc.up.mu.Unlock()
	if status, body := mc.admin("POST", "/admin/tenants/acme/mcp-servers/slack/refresh", ""); status != 200 {
		t.Fatalf("refresh: %d %s", status, body)
	}
	_, page = mc.page("/console/tenants/acme")
	for _, want := range []string{"1 change waiting", "changed: waiting for acceptance", `href="/console/tenants/acme/mcp-servers/slack#changes"`} {
		if !strings.Contains(page, want) {
			t.Errorf("tenant page lacks %q", want)
		}
	}
	_, page = mc.page("/console/tenants/acme/mcp-servers/slack")
	text := html.UnescapeString(page)
	for _, want := range []string{"Changes waiting (1)", `name="accept" value="post_message"`, `name="hash.post_message" value="sha256:`,
		"This change would lift the approval gate", `name="lift.post_message"`, "accepted as destructive, listed as read-only",
		"<mark>instruction</mark>", "<mark>outside url</mark>", "<mark>hidden characters</mark>", "⟦U+200B⟧", "Listed now",
		`<tr class="add flagged">`, `"readOnlyHint": true`} {
		if !strings.Contains(text, want) {
			t.Errorf("server page lacks %q", want)
		}
	}
	hash := regexp.MustCompile(`name="hash.post_message" value="([^"]+)"`).FindStringSubmatch(page)
	if hash == nil {
		t.Fatal("no hash field")
	}

	_, page = mc.form("/console/tenants/acme/mcp-servers/slack/changes/accept", url.Values{"accept": {"post_message"}, "hash.post_message": {"sha256:stale"}})
	if !strings.Contains(page, "Not accepted:") || !strings.Contains(page, "changed since it was shown") || !strings.Contains(page, "Changes waiting (1)") {
		t.Fatalf("stale hash:\n%s", page)
	}
	_, page = mc.form("/console/tenants/acme/mcp-servers/slack/changes/accept", url.Values{"accept": {"post_message"}, "hash.post_message": {hash[1]}})
	if !strings.Contains(page, "Accepted for MCP server slack: post_message (gate kept)") || !strings.Contains(page, "None: every tool") {
		t.Fatalf("accept:\n%s", page)
	}
	_, page = mc.page("/console/tenants/acme")
	if strings.Contains(page, "change waiting") || !strings.Contains(html.UnescapeString(page), "Ignore previous instructions") {
		t.Errorf("tenant page after acceptance:\n%s", page)
	}
	if !regexp.MustCompile(`slack__post_message</code>.*?</td><td>[a-z_]+</td><td>destructive</td>`).MatchString(page) {
		t.Errorf("post_message is not destructive any more after an acceptance that did not lift the gate")
	}
}
