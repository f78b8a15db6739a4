package console

import (
	"net/http"
	"slices"
)

// healthShown are the fields of the system health report the health page
// shows as text and tables; the rest is one click away as JSON.
var healthShown = []string{"status", "reasons", "taken_at", "store", "jobs", "providers", "api_versions", "mcp_servers"}

// healthView is the health page: the report, and its fields the page does
// not lay out (queues, grading, disk, process, replicas…).
type healthView struct {
	Report obj
	Rest   obj
}

func (c *Console) health(w http.ResponseWriter, r *http.Request, _ *session) {
	path := "/admin/system-health"
	if r.URL.Query().Get("fresh") == "1" {
		path += "?fresh=1"
	}
	f := &fetch{c: c, r: r}
	var rep obj
	f.get(path, &rep)
	c.render(w, r, http.StatusOK, "health", &page{Title: "System health", Nav: "health", Error: f.message(), Refresh: 60,
		Data: healthView{Report: rep, Rest: healthRest(rep)}})
}

// healthRest is the report without the fields the page shows; nil when
// nothing is left.
func healthRest(rep obj) obj {
	rest := obj{}
	for k, v := range rep {
		if !slices.Contains(healthShown, k) {
			rest[k] = v
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return rest
}
