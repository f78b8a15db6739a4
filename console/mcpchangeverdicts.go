package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// changeVerdict is the jury's verdict on one tool change (#42: every
// change is graded as a trace of kind federation.tool_changed).
type changeVerdict struct {
	ID      string
	Status  string
	Quality int
	// Issues are the panel's, joined.
	Issues string
}

// gradedChanges attaches to each change the newest verdict on exactly that
// change (same server, tool and listed hash). Only operators read
// verdicts; for a tenant's people, or before the jury graded it, the
// change is shown without one.
func (c *Console) gradedChanges(r *http.Request, tenant, name string, changes []mcpChange) {
	if s := sessionOf(r); len(changes) == 0 || s == nil || s.actor.Operator() == "" {
		return // verdicts are the operators' (GET /admin/grader/verdicts)
	}
	var out struct {
		Verdicts []struct {
			ID     string `json:"id"`
			Tool   string `json:"tool"`
			Status string `json:"status"`
			Panel  *struct {
				Quality int      `json:"quality"`
				Issues  []string `json:"issues"`
			} `json:"panel"`
			Trace *struct {
				Kind  string          `json:"kind"`
				Input json.RawMessage `json:"input"`
			} `json:"trace"`
		} `json:"verdicts"`
	}
	q := url.Values{"tenant": {tenant}, "limit": {"200"}}
	if c.call(r, http.MethodGet, "/admin/grader/verdicts?"+q.Encode(), nil, &out) != nil {
		return
	}
	for i := range changes {
		for _, v := range out.Verdicts { // newest first
			if v.Trace == nil || v.Trace.Kind != "federation.tool_changed" || v.Tool != name+gtmgate.FederatedSeparator+changes[i].Tool {
				continue
			}
			var in struct {
				Server string `json:"server"`
				Change struct {
					Hash string `json:"hash"`
				} `json:"change"`
			}
			if json.Unmarshal(v.Trace.Input, &in) != nil || in.Server != name || in.Change.Hash != changes[i].Hash {
				continue
			}
			cv := &changeVerdict{ID: v.ID, Status: v.Status}
			if v.Panel != nil {
				cv.Quality, cv.Issues = v.Panel.Quality, strings.Join(v.Panel.Issues, ", ")
			}
			changes[i].Verdict = cv
			break
		}
	}
}
