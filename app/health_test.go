package app_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestSystemHealth: a fresh snapshot is kept and served as the latest and in
// the series; an account needing re-authorisation degrades it, and /health
// says degraded with a reason that names no tenant.
func TestSystemHealth(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	since := url.QueryEscape(time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))
	fresh := env.Admin("GET", "/admin/system-health?fresh=1", nil).JSON(t)
	store := fresh["store"].(map[string]any)
	if fresh["status"] == nil || store["reachable"] != true || store["migration_version"].(float64) < 8 || fresh["process"].(map[string]any)["goroutines"].(float64) == 0 {
		t.Fatalf("fresh snapshot: %v", fresh)
	}
	latest := env.Admin("GET", "/admin/system-health", nil).JSON(t)
	if latest["id"] == nil {
		t.Fatalf("latest: %v", latest)
	}
	series := env.Admin("GET", "/admin/system-health?since="+since, nil).JSON(t)
	if series["count"].(float64) < 1 {
		t.Fatalf("series: %v", series)
	}

	// Failing provider calls degrade the next snapshot, and /health says so
	// without naming the tenant.
	for range 10 {
		env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "get", "id": "no-such-contact", "rationale": "health test"})
	}
	degraded := env.Admin("GET", "/admin/system-health?fresh=1", nil).JSON(t)
	if degraded["status"] != "degraded" || !strings.Contains(strings.Join(toStrings(degraded["reasons"]), "; "), "hubspot calls fail at 100%") {
		t.Fatalf("after failing calls: %v %v", degraded["status"], degraded["reasons"])
	}
	r := env.Do("GET", env.GatewayURL+"/health", nil)
	h := r.JSON(t)
	reasons := strings.Join(toStrings(h["reasons"]), "; ")
	if r.Status != 200 || h["status"] != "degraded" || !strings.Contains(reasons, "hubspot") || strings.Contains(string(r.Body), "demo") {
		t.Errorf("/health: %d %s", r.Status, r.Body)
	}
}

func toStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}
