package console

import (
	"cmp"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// agentDays is how many UTC days, today included, the agent page counts.
const agentDays = 7

// agentView is the agent page's data: one tenant token's agent.
type agentView struct {
	Tenant string
	Token  obj
	// Audit is its newest audit entries; More links to the rest.
	Audit []obj
	More  string
	// Failures is its newest error ledger entries.
	Failures []obj
	// Usage is its usage summary over the last agentDays days; Chart draws
	// its calls and errors per day.
	Usage obj
	Chart template.HTML
}

// grantAgent is the agent of an OAuth grant (key "oauth:<grant id>") as
// the page shows a token: the client's name as its label, whom it acts
// for and who consented (the grant's consenting person is both); nil when
// no live grant of the tenant has the key.
func (c *Console) grantAgent(f *fetch, tenantID, key string) obj {
	var grants struct {
		Grants []gtmgate.OAuthGrant `json:"oauth_grants"`
	}
	f.get("/admin/tenants/"+esc(tenantID)+"/oauth-grants", &grants)
	for _, g := range grants.Grants {
		i := slices.IndexFunc(g.Agents, func(a gtmgate.OAuthAgent) bool { return a.Key == key })
		if i < 0 {
			continue
		}
		a := obj{"id": key, "label": "OAuth client " + cmp.Or(g.ClientName, g.ClientID), "created_at": g.FirstIssued.Format(time.RFC3339Nano), "toolset": g.Agents[i].Toolset}
		if by := g.Agents[i].ConsentedBy; by != "" {
			a["created_by"], a["person"] = by, gtmgate.ConsentingPerson(by)
		}
		return a
	}
	return nil
}

// agent is one agent's page: a tenant token with its label and toolset
// (or an OAuth grant, by its key),
// what it did (the audit entries of its key), what failed (the error
// ledger's entries of its key) and its calls and errors per day (its usage
// events). Every figure is an admin API read filtered by the token id.
func (c *Console) agent(w http.ResponseWriter, r *http.Request, _ *session) {
	id, key := r.PathValue("id"), r.PathValue("token")
	title := "Agent " + key
	f := &fetch{c: c, r: r}
	var tokens struct{ Tokens []obj }
	if !f.get("/admin/auth/"+esc(id), &tokens) {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: title, Nav: "tenants", Error: f.message()})
		return
	}
	v := &agentView{Tenant: id}
	for _, t := range tokens.Tokens {
		if anyString(t["id"]) == key {
			v.Token = t
		}
	}
	if strings.HasPrefix(key, "oauth:") {
		v.Token = c.grantAgent(f, id, key)
	}
	if v.Token == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: title, Nav: "tenants", Error: "Tenant " + id + " has no token " + key + "."})
		return
	}
	if label := anyString(v.Token["label"]); label != "" {
		title = "Agent " + label
	}
	of := url.Values{"tenant": {id}, "key": {key}}
	var audit struct {
		Entries    []obj
		NextCursor string `json:"next_cursor"`
	}
	f.get("/admin/audit?"+of.Encode()+"&limit=50", &audit)
	v.Audit = audit.Entries
	if audit.NextCursor != "" {
		v.More = "/console/audit?" + of.Encode() + "&cursor=" + url.QueryEscape(audit.NextCursor)
	}
	var failures struct{ Entries []obj }
	f.get("/admin/errors?"+of.Encode()+"&kind="+gtmgate.LedgerFailure+"&limit=20", &failures)
	v.Failures = failures.Entries
	last := c.opts.Now().UTC().Truncate(24 * time.Hour)
	first := last.AddDate(0, 0, 1-agentDays)
	var raw json.RawMessage
	var usage struct {
		ByDay []usageRow `json:"by_day"`
	}
	span := url.Values{"key": {key}, "from": {first.Format(time.DateOnly)}, "to": {last.Format(time.DateOnly)}}
	if f.get("/admin/usage/"+esc(id)+"?"+span.Encode(), &raw) && json.Unmarshal(raw, &v.Usage) == nil && json.Unmarshal(raw, &usage) == nil {
		v.Chart = barChart("Calls per day, errors highlighted", dayBars(first, agentDays, usage.ByDay), " calls")
	}
	c.render(w, r, http.StatusOK, "agent", &page{Title: title, Nav: "tenants", Error: f.message(), Data: v})
}

// dayBars are the calls and errors of n UTC days from first, a day
// without usage included as an empty bar.
func dayBars(first time.Time, n int, rows []usageRow) []bar {
	bars := make([]bar, n)
	at := make(map[string]*bar, n)
	for i := range bars {
		d := first.AddDate(0, 0, i)
		bars[i].Label = d.Format("01-02")
		at[d.Format(time.DateOnly)] = &bars[i]
	}
	for _, r := range rows {
		if b := at[r.Day]; b != nil {
			b.Value, b.Part = float64(r.Calls), float64(r.Errors)
		}
	}
	return bars
}
