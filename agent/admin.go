package agent

import (
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Mount adds the runs' admin routes.
func (a *Agents) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/agent-runs", a.adminList)
	mux.HandleFunc("GET /admin/agent-runs/{run_id}", a.adminGet)
	mux.HandleFunc("POST /admin/agent-runs/{run_id}/cancel", a.adminCancel)
}

// adminList serves GET /admin/agent-runs?tenant&job_id&status&limit (default 50, max 500).
func (a *Agents) adminList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := jsonapi.QueryLimit(q.Get("limit"), 50, 500)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	runs, err := a.opts.Store.ListAgentRuns(r.Context(), gtmgate.AgentRunFilter{TenantID: q.Get("tenant"), ScheduleID: q.Get("job_id"),
		Status: q.Get("status"), Limit: limit})
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := make([]View, len(runs))
	for i, run := range runs {
		out[i] = view(run)
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"runs": out})
}

func (a *Agents) adminGet(w http.ResponseWriter, r *http.Request) {
	run, err := a.Get(r.Context(), "", r.PathValue("run_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, view(run))
}

func (a *Agents) adminCancel(w http.ResponseWriter, r *http.Request) {
	run, err := a.Cancel(r.Context(), "", r.PathValue("run_id"), "admin")
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, view(run))
}
