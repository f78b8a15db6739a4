package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// toolsView is the tools page's data: what a tenant's agents get, under
// the toolset or agent chosen.
type toolsView struct {
	Tenant string
	// As is the selector's value: "", "toolset:NAME" or "token:ID".
	As string
	// Toolset is the toolset the list is cut to ("" none).
	Toolset string
	Choices []fieldOption
	Domains []toolDomain
	Count   int
}

// toolDomain is one domain's tools on the tools page.
type toolDomain struct {
	Name  string
	Tools []obj
}

// toolsQuery is the admin API query of the tools page's selector: ?as=
// (the page's own form) or ?toolset= / ?token= (links from agent pages).
func toolsQuery(q url.Values) (as string, query url.Values) {
	as = q.Get("as")
	switch {
	case as == "" && q.Get("token") != "":
		as = "token:" + q.Get("token")
	case as == "" && q.Get("toolset") != "":
		as = "toolset:" + q.Get("toolset")
	}
	query = url.Values{}
	if kind, name, ok := strings.Cut(as, ":"); ok && (kind == "toolset" || kind == "token") && name != "" {
		query.Set(kind, name)
	}
	return as, query
}

// tools lists the tools a tenant's agents get, by domain, each with its
// actions and whether the tenant's approval policy holds them, and links
// each to its playground.
func (c *Console) tools(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	v := &toolsView{Tenant: id}
	as, query := toolsQuery(r.URL.Query())
	v.As = as
	f := &fetch{c: c, r: r}
	var list struct {
		Toolset string
		Tools   []obj
	}
	path := "/admin/tenants/" + esc(id) + "/tools"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	if !f.get(path, &list) && len(query) == 0 {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Tools of " + id, Nav: "tenants", Error: f.message()})
		return
	}
	v.Toolset = list.Toolset
	v.Choices = c.agentChoices(f, id)
	for _, t := range list.Tools {
		d := anyString(t["domain"])
		i := slices.IndexFunc(v.Domains, func(g toolDomain) bool { return g.Name == d })
		if i < 0 {
			v.Domains = append(v.Domains, toolDomain{Name: d})
			i = len(v.Domains) - 1
		}
		v.Domains[i].Tools = append(v.Domains[i].Tools, t)
		v.Count++
	}
	c.render(w, r, http.StatusOK, "tools", &page{Title: "Tools of " + id, Nav: "tenants", Error: f.message(), Data: v})
}

// agentChoices are the tools page's selector: every tool, each toolset of
// the tenant, and each of its unrevoked tokens (the agent it is).
func (c *Console) agentChoices(f *fetch, id string) []fieldOption {
	out := []fieldOption{{"", "every tool (no toolset)"}}
	var sets struct{ Toolsets map[string]any }
	f.get("/admin/tenants/"+esc(id)+"/toolsets", &sets)
	for _, name := range sortedKeys(sets.Toolsets) {
		out = append(out, fieldOption{"toolset:" + name, "toolset " + name})
	}
	var tokens struct{ Tokens []obj }
	f.get("/admin/auth/"+esc(id), &tokens)
	for _, t := range tokens.Tokens {
		if t["revoked_at"] != nil {
			continue
		}
		label := "agent " + anyString(t["id"])
		if l := anyString(t["label"]); l != "" {
			label = "agent " + l + " (" + anyString(t["id"]) + ")"
		}
		out = append(out, fieldOption{"token:" + anyString(t["id"]), label})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// playgroundView is the playground page's data: a tool, its form, and the
// outcome of the last run.
type playgroundView struct {
	Tenant, Toolset string
	Tool            obj
	Fields          []formField
	Raw             string
	// MayRun is false when the signed-in person's role stops at reading:
	// the form is there, and the admin API's refusal is what a run shows.
	MayRun  bool
	Outcome *runOutcome
}

// runOutcome is what a run came to: a result, a gate, or an error.
type runOutcome struct {
	Result, Action, RequestID string
	DurationMS                float64
	// Gate is the held call's approval (GET /admin/approvals/{id}); Page its console page.
	GateID, GatePage, GateMessage string
	Gate                          obj
	// Code, Message and Hint are the refusal's.
	Code, Message, Hint string
	Input               string
}

// playgroundTool finds tool among what the tenant's agents get under
// toolset; nil and the page's error when it is not there.
func (c *Console) playgroundTool(r *http.Request, id, tool, toolset string) (obj, string) {
	path := "/admin/tenants/" + esc(id) + "/tools"
	if toolset != "" {
		path += "?toolset=" + url.QueryEscape(toolset)
	}
	var list struct{ Tools []obj }
	if err := c.call(r, http.MethodGet, path, nil, &list); err != nil {
		return nil, err.Error()
	}
	for _, t := range list.Tools {
		if anyString(t["name"]) == tool {
			return t, ""
		}
	}
	msg := "Tenant " + id + "'s agents get no tool " + tool
	if toolset != "" {
		msg += " under toolset " + toolset
	}
	return nil, msg + "."
}

// marksOf labels a tool's actions for its action select.
func marksOf(tool obj) actionMarks {
	marks := actionMarks{}
	actions, _ := tool["actions"].([]any)
	for _, a := range actions {
		a, _ := a.(obj)
		var m []string
		if a["held"] == true {
			m = append(m, "held for approval")
		}
		if a["destructive"] == true {
			m = append(m, "destructive")
		} else if a["mutating"] == true {
			m = append(m, "changes data")
		}
		marks[anyString(a["name"])] = m
	}
	return marks
}

func (c *Console) playgroundView(r *http.Request, id, tool, toolset string) (*playgroundView, string) {
	t, msg := c.playgroundTool(r, id, tool, toolset)
	if t == nil {
		return nil, msg
	}
	schema, _ := t["input_schema"].(obj)
	return &playgroundView{Tenant: id, Toolset: toolset, Tool: t, Fields: formFields(schema, marksOf(t)),
		MayRun: mayCall(sessionOf(r).actor, "POST /admin/tenants/{tenant_id}/tools/{tool}/call", id)}, ""
}

// playground is a tool's form, generated from its input schema.
func (c *Console) playground(w http.ResponseWriter, r *http.Request, _ *session) {
	id, tool := r.PathValue("id"), r.PathValue("tool")
	v, msg := c.playgroundView(r, id, tool, r.URL.Query().Get("toolset"))
	if v == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Playground: " + tool, Nav: "tenants", Error: msg})
		return
	}
	c.render(w, r, http.StatusOK, "playground", &page{Title: "Playground: " + tool, Nav: "tenants", Data: v})
}

// runTool builds the input from the form (or the raw JSON), runs it
// through the admin API as the signed-in person, and shows the same page
// with the outcome.
func (c *Console) runTool(w http.ResponseWriter, r *http.Request, _ *session) {
	id, tool := r.PathValue("id"), r.PathValue("tool")
	toolset := r.PostForm.Get("toolset")
	v, msg := c.playgroundView(r, id, tool, toolset)
	if v == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Playground: " + tool, Nav: "tenants", Error: msg})
		return
	}
	p := &page{Title: "Playground: " + tool, Nav: "tenants", Data: v}
	var input map[string]any
	if raw := strings.TrimSpace(r.PostForm.Get("raw")); raw != "" {
		v.Raw = raw
		if err := json.Unmarshal([]byte(raw), &input); err != nil || input == nil {
			p.Error = "The raw input is not a JSON object."
			if err != nil {
				p.Error = "The raw input is not a JSON object: " + err.Error()
			}
			c.render(w, r, http.StatusUnprocessableEntity, "playground", p)
			return
		}
		v.Fields = withValues(v.Fields, input)
	} else {
		var ok bool
		if input, v.Fields, ok = inputOf(v.Fields, r.PostForm); !ok {
			p.Error = "Some fields could not be read; nothing was run."
			c.render(w, r, http.StatusUnprocessableEntity, "playground", p)
			return
		}
	}
	v.Outcome = c.run(r, id, tool, toolset, input)
	c.render(w, r, http.StatusOK, "playground", p)
}

// run calls the tool through the admin API and reads its answer: a result
// (200), a gate (202 APPROVAL_REQUIRED) or an error.
func (c *Console) run(r *http.Request, id, tool, toolset string, input map[string]any) *runOutcome {
	o := &runOutcome{Input: indent(input)}
	body := obj{"input": input}
	if toolset != "" {
		body["toolset"] = toolset
	}
	var out obj
	err := c.call(r, http.MethodPost, "/admin/tenants/"+esc(id)+"/tools/"+esc(tool)+"/call", body, &out)
	if ae := (*apiError)(nil); errors.As(err, &ae) {
		o.Code, o.Message, o.Hint = ae.Code, ae.Message, ae.Hint
		return o
	} else if err != nil {
		o.Code, o.Message = gtmgate.EInternal, err.Error()
		return o
	}
	if gate := anyString(out["approval_id"]); gate != "" {
		e, _ := out["error"].(obj)
		o.GateID, o.GatePage, o.GateMessage = gate, gtmgate.ApprovalPagePath(gate), anyString(e["message"])
		var g obj
		if c.call(r, http.MethodGet, "/admin/approvals/"+esc(gate), nil, &g) == nil {
			o.Gate = g
		}
		return o
	}
	o.Result, o.Action, o.RequestID = indent(out["result"]), anyString(out["action"]), anyString(out["request_id"])
	o.DurationMS, _ = out["duration_ms"].(float64)
	if o.Result == "" {
		o.Result = "null"
	}
	return o
}
