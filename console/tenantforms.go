package console

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// The tenant page's Configuration form. It shows the fields people change
// (name, status, production, provider accounts, models, approval policy,
// rate limits and limits); the PUT body is the tenant as the API returned
// it with these fields laid over, so what the form does not show
// (toolsets, approval routes, an account's login customer id) is kept.
// Every control works without JavaScript: "Add account" and "Add
// provider" are submit buttons that re-render the form with one more row.

// formState is what both forms carry besides their fields: the refusals to
// show beside the inputs they name, and the summary at the top.
type formState struct {
	// Errs maps an input's id to the message shown beside it.
	Errs map[string]string
	// Problems are the summary's lines; ID is "" when a refusal names no
	// input of the form.
	Problems []formProblem
	// JSONOpen opens the "Edit as JSON" details (its text was refused).
	JSONOpen bool
}

// formProblem is one line of a form's error summary.
type formProblem struct{ ID, Message string }

// fail records a refusal of the input with the given id ("" for none).
func (s *formState) fail(id, msg string) {
	if id != "" {
		if s.Errs == nil {
			s.Errs = map[string]string{}
		}
		if _, seen := s.Errs[id]; !seen {
			s.Errs[id] = msg
		}
	}
	s.Problems = append(s.Problems, formProblem{ID: id, Message: msg})
}

// refused records the admin API's refusal next to the input its field
// names (paths maps JSON paths of the body to input ids); an unknown path
// goes to the summary alone.
func (s *formState) refused(err error, paths map[string]string) {
	var ae *apiError
	if errors.As(err, &ae) {
		id := paths[ae.Field]
		s.Problems = append(s.Problems, formProblem{ID: id, Message: ae.Error()})
		if id != "" {
			// Beside its input the message need not name the field again.
			if s.Errs == nil {
				s.Errs = map[string]string{}
			}
			s.Errs[id] = strings.TrimLeft(strings.TrimPrefix(ae.Error(), ae.Field), ": ")
		}
		return
	}
	s.fail("", err.Error())
}

// Invalid returns the attributes of the input with the given id:
// aria-invalid and aria-describedby naming its message when it was refused.
func (s *formState) Invalid(id string) template.HTMLAttr {
	if _, bad := s.Errs[id]; !bad {
		return ""
	}
	return template.HTMLAttr(`aria-invalid="true" aria-describedby="` + template.HTMLEscapeString(id) + `-error"`)
}

// ErrorFor returns the message shown beside the input with the given id.
func (s *formState) ErrorFor(id string) template.HTML {
	msg, bad := s.Errs[id]
	if !bad {
		return ""
	}
	return template.HTML(`<span class="field-error" id="` + template.HTMLEscapeString(id) + `-error">` + template.HTMLEscapeString(msg) + `</span>`)
}

// numInput is one number field of a form (the "numfield" template).
type numInput struct {
	ID, Name, Label, Value, Step string
	Form                         *formState
}

// Num describes a number field of the form for the "numfield" template.
func (s *formState) Num(id, name, label, value, step string) numInput {
	return numInput{ID: id, Name: name, Label: label, Value: value, Step: step, Form: s}
}

// configForm is the Configuration form's fields as shown or as typed.
type configForm struct {
	formState
	Name, Status string
	Production   bool
	Providers    []providerForm
	// Addable are the gateway's known providers the form has no section for.
	Addable []string
	Models  string
	// Categories are gtmgate.Categories, each checked when held.
	Categories                                []categoryBox
	Actions                                   string
	Destructive, TwoApprovers, NoSelfApproval bool
	// DefaultPolicy says the tenant has no approval policy of its own: the
	// form shows the gateway's default, and saving it unchanged keeps none.
	DefaultPolicy                                       bool
	TenantRPS, TenantBurst, TokenRPS, TokenBurst        string
	RunsInFlight, RunsQueued, Schedules, StepsPerMinute string
}

// providerForm is one provider's section: its accounts and the default.
type providerForm struct {
	Index    int
	Key      string
	Accounts []accountForm
	// Default is the row index of the default account, -1 for none.
	Default int
}

// accountForm is one account row. Orig is the id the account had when
// the form was shown, so that fields the form does not show follow it.
type accountForm struct {
	P, Index                int
	ID, Label, Person, Orig string
	Remove                  bool
}

// categoryBox is one approval category checkbox.
type categoryBox struct {
	Name    string
	Checked bool
}

// Name returns the form name of one of the row's fields.
func (a accountForm) Name(field string) string { return fmt.Sprintf("p%d.a%d.%s", a.P, a.Index, field) }

// InputID returns the id of one of the row's inputs.
func (a accountForm) InputID(field string) string {
	return fmt.Sprintf("cfg-p%d-a%d-%s", a.P, a.Index, field)
}

func (a accountForm) blank() bool { return a.ID == "" && a.Label == "" && a.Person == "" }

// InputID returns the id of the provider's fieldset.
func (p providerForm) InputID() string { return fmt.Sprintf("cfg-p%d", p.Index) }

// newConfigForm shows tenant (as GET /admin/tenants/{id} returns it).
func newConfigForm(tenant obj, known []string) *configForm {
	var t gtmgate.Tenant
	b, _ := json.Marshal(tenant)
	json.Unmarshal(b, &t)
	f := &configForm{Name: t.Name, Status: t.Status, Production: t.Production, Models: strings.Join(t.AllowedModels, "\n")}
	for _, key := range slices.Sorted(maps.Keys(t.Providers)) {
		p := providerForm{Index: len(f.Providers), Key: key, Default: -1}
		for i, a := range t.Providers[key].Accounts {
			p.Accounts = append(p.Accounts, accountForm{P: p.Index, Index: i, ID: a.ID, Label: a.Label, Person: a.Person, Orig: a.ID})
			if a.ID == t.Providers[key].Default {
				p.Default = i
			}
		}
		f.Providers = append(f.Providers, p)
	}
	policy := t.Approval
	if policy == nil {
		d := gtmgate.DefaultApprovalPolicy()
		policy, f.DefaultPolicy = &d, true
	}
	f.Categories = categoryBoxes(policy.Categories)
	f.Actions = strings.Join(policy.Actions, "\n")
	f.Destructive, f.TwoApprovers, f.NoSelfApproval = policy.Destructive, policy.TwoApproversForDestructive, policy.NoSelfApproval
	if rl := t.RateLimits; rl != nil {
		if rl.Tenant != nil {
			f.TenantRPS, f.TenantBurst = numberText(rl.Tenant.RequestsPerSecond), wholeText(int64(rl.Tenant.Burst))
		}
		if rl.PerToken != nil {
			f.TokenRPS, f.TokenBurst = numberText(rl.PerToken.RequestsPerSecond), wholeText(int64(rl.PerToken.Burst))
		}
	}
	if l := t.Limits; l != nil {
		f.RunsInFlight, f.RunsQueued = wholeText(int64(l.RunsInFlight)), wholeText(int64(l.RunsQueued))
		f.Schedules, f.StepsPerMinute = wholeText(int64(l.Schedules)), wholeText(int64(l.StepsPerMinute))
	}
	f.finish(known)
	return f
}

// parseConfigForm reads the form as typed.
func parseConfigForm(form url.Values, known []string) *configForm {
	get := func(k string) string { return strings.TrimSpace(form.Get(k)) }
	f := &configForm{Name: get("name"), Status: get("status"), Production: form.Get("production") != "",
		Models: get("models"), Actions: get("actions"), Destructive: form.Get("destructive") != "",
		TwoApprovers: form.Get("two_approvers") != "", NoSelfApproval: form.Get("no_self_approval") != "",
		DefaultPolicy: form.Get("default_policy") != "",
		TenantRPS:     get("tenant_rps"), TenantBurst: get("tenant_burst"), TokenRPS: get("token_rps"), TokenBurst: get("token_burst"),
		RunsInFlight: get("runs_in_flight"), RunsQueued: get("runs_queued"), Schedules: get("schedules"), StepsPerMinute: get("steps_per_minute")}
	f.Categories = categoryBoxes(form["categories"])
	for pi := 0; form.Has(fmt.Sprintf("p%d.key", pi)); pi++ {
		p := providerForm{Index: pi, Key: get(fmt.Sprintf("p%d.key", pi)), Default: -1}
		if d, err := strconv.Atoi(form.Get(fmt.Sprintf("p%d.default", pi))); err == nil {
			p.Default = d
		}
		for ai := 0; form.Has(fmt.Sprintf("p%d.a%d.id", pi, ai)); ai++ {
			a := accountForm{P: pi, Index: ai}
			a.ID, a.Label, a.Person = get(a.Name("id")), get(a.Name("label")), get(a.Name("person"))
			a.Orig, a.Remove = form.Get(a.Name("orig")), form.Get(a.Name("remove")) != ""
			p.Accounts = append(p.Accounts, a)
		}
		f.Providers = append(f.Providers, p)
	}
	return f
}

// grow carries out an "Add account" or "Add provider" button, reporting
// whether it was one (the form is then shown again, not saved).
func (f *configForm) grow(action, newProvider string, known []string) bool {
	switch {
	case strings.HasPrefix(action, "add-account:"):
		i, err := strconv.Atoi(strings.TrimPrefix(action, "add-account:"))
		if err == nil && i >= 0 && i < len(f.Providers) {
			p := &f.Providers[i]
			p.Accounts = append(p.Accounts, accountForm{P: i, Index: len(p.Accounts)})
		}
	case action == "add-provider":
		if slices.Contains(known, newProvider) && !slices.ContainsFunc(f.Providers, func(p providerForm) bool { return p.Key == newProvider }) {
			f.Providers = append(f.Providers, providerForm{Index: len(f.Providers), Key: newProvider, Default: -1})
		}
	default:
		return false
	}
	f.finish(known)
	return true
}

// finish ends every provider with a blank row, to add an account, and
// lists the providers that can still be added.
func (f *configForm) finish(known []string) {
	for i := range f.Providers {
		p := &f.Providers[i]
		if n := len(p.Accounts); n == 0 || !p.Accounts[n-1].blank() {
			p.Accounts = append(p.Accounts, accountForm{P: i, Index: n})
		}
	}
	f.Addable = slices.DeleteFunc(slices.Clone(known), func(k string) bool {
		return slices.ContainsFunc(f.Providers, func(p providerForm) bool { return p.Key == k })
	})
}

// configBody lays the form over base (the tenant as the API returned it)
// into the PUT /admin/tenants/{id} body. paths maps the body's JSON paths
// to the form's input ids, for the API's refusals; numbers that do not
// parse are recorded on f.
func configBody(base obj, f *configForm) (body obj, paths map[string]string) {
	body = obj{}
	for k, v := range base {
		if k != "id" && k != "created_at" && k != "updated_at" {
			body[k] = v
		}
	}
	paths = map[string]string{"name": "cfg-name", "status": "cfg-status", "allowed_models": "cfg-models",
		"approval_policy.categories": "cfg-categories", "approval_policy.actions": "cfg-actions",
		"rate_limits.tenant.requests_per_second": "cfg-tenant-rps", "rate_limits.tenant.burst": "cfg-tenant-burst",
		"rate_limits.per_token.requests_per_second": "cfg-token-rps", "rate_limits.per_token.burst": "cfg-token-burst",
		"limits.runs_in_flight": "cfg-runs-in-flight", "limits.runs_queued": "cfg-runs-queued",
		"limits.schedules": "cfg-schedules", "limits.steps_per_minute": "cfg-steps-per-minute"}
	body["name"], body["status"], body["production"] = f.Name, f.Status, f.Production
	body["providers"] = f.providersBody(base, paths)
	setOrDelete(body, "allowed_models", lines(f.Models))

	policy := obj{}
	if old, ok := base["approval_policy"].(obj); ok {
		maps.Copy(policy, old) // keeps its routes
	}
	var held []string
	for _, c := range f.Categories {
		if c.Checked {
			held = append(held, c.Name)
		}
	}
	policy["categories"], policy["actions"] = held, lines(f.Actions) // none: null, as the API writes it
	policy["destructive"], policy["two_approvers_for_destructive"], policy["no_self_approval"] = f.Destructive, f.TwoApprovers, f.NoSelfApproval
	d := gtmgate.DefaultApprovalPolicy()
	if f.DefaultPolicy && base["approval_policy"] == nil && slices.Equal(held, d.Categories) && f.Actions == "" &&
		f.Destructive == d.Destructive && !f.TwoApprovers && !f.NoSelfApproval {
		delete(body, "approval_policy") // unchanged: the gateway's default still applies
	} else {
		body["approval_policy"] = policy
	}

	rates := obj{}
	for _, r := range []struct{ key, rps, burst, rpsID, burstID string }{
		{"tenant", f.TenantRPS, f.TenantBurst, "cfg-tenant-rps", "cfg-tenant-burst"},
		{"per_token", f.TokenRPS, f.TokenBurst, "cfg-token-rps", "cfg-token-burst"}} {
		if r.rps == "" && r.burst == "" {
			continue
		}
		limit := obj{}
		if v, ok := f.float(r.rpsID, r.rps); ok {
			limit["requests_per_second"] = v
		}
		if v, ok := f.integer(r.burstID, r.burst); ok {
			limit["burst"] = v
		}
		rates[r.key] = limit
	}
	setOrDelete(body, "rate_limits", rates)

	limits := obj{}
	for _, l := range []struct{ key, v, id string }{{"runs_in_flight", f.RunsInFlight, "cfg-runs-in-flight"},
		{"runs_queued", f.RunsQueued, "cfg-runs-queued"}, {"schedules", f.Schedules, "cfg-schedules"},
		{"steps_per_minute", f.StepsPerMinute, "cfg-steps-per-minute"}} {
		if v, ok := f.integer(l.id, l.v); ok && v != 0 {
			limits[l.key] = v
		}
	}
	setOrDelete(body, "limits", limits)
	return body, paths
}

// providersBody builds "providers": each section's kept rows, each laid
// over the account it was (by its id when shown), and the default.
func (f *configForm) providersBody(base obj, paths map[string]string) obj {
	oldAccounts := map[string]obj{}
	if ps, ok := base["providers"].(obj); ok {
		for key, p := range ps {
			accts, _ := p.(obj)["accounts"].([]any)
			for _, a := range accts {
				if a, ok := a.(obj); ok {
					oldAccounts[key+"\x00"+fmt.Sprint(a["id"])] = a
				}
			}
		}
	}
	out := obj{}
	for _, p := range f.Providers {
		if p.Key == "" || out[p.Key] != nil {
			continue
		}
		paths["providers."+p.Key] = p.InputID()
		paths["providers."+p.Key+".default"] = p.InputID()
		accounts, def := []any{}, ""
		for _, a := range p.Accounts {
			if a.Remove || a.blank() {
				continue
			}
			acct := obj{}
			maps.Copy(acct, oldAccounts[p.Key+"\x00"+a.Orig])
			acct["id"], acct["label"] = a.ID, a.Label
			delete(acct, "person")
			if a.Person != "" {
				acct["person"] = a.Person
			}
			at := fmt.Sprintf("providers.%s.accounts[%d]", p.Key, len(accounts))
			for _, field := range []string{"id", "label", "person"} {
				paths[at+"."+field] = a.InputID(field)
			}
			if a.Index == p.Default || def == "" {
				def = a.ID // the chosen one, else the first kept
			}
			accounts = append(accounts, acct)
		}
		out[p.Key] = obj{"accounts": accounts, "default": def}
	}
	return out
}

// float and integer parse a number field ("" is no number); a value that
// does not parse is recorded beside its input.
func (s *formState) float(id, v string) (float64, bool) {
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		s.fail(id, fmt.Sprintf("%q is not a number", v))
		return 0, false
	}
	return n, true
}

func (s *formState) integer(id, v string) (int64, bool) {
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		s.fail(id, fmt.Sprintf("%q is not a whole number", v))
		return 0, false
	}
	return n, true
}

func categoryBoxes(held []string) []categoryBox {
	boxes := make([]categoryBox, len(gtmgate.Categories))
	for i, c := range gtmgate.Categories {
		boxes[i] = categoryBox{Name: string(c), Checked: slices.Contains(held, string(c))}
	}
	return boxes
}

// lines splits a textarea into its non-blank lines, trimmed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// setOrDelete sets body[key] to v, or removes the key when v is empty.
func setOrDelete[V any](body obj, key string, v V) {
	b, _ := json.Marshal(v)
	if s := string(b); s == "null" || s == "{}" || s == "[]" {
		delete(body, key)
		return
	}
	body[key] = v
}

func numberText(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func wholeText(v int64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

// saveTenant saves the Configuration form, or the configuration's JSON
// when the "Edit as JSON" form was sent. A refusal shows the page again
// (422) with what was typed and the API's message beside the field it
// names. The signing secrets of approval route webhooks a save adds are
// shown in this response only (never in a redirect or a cookie).
func (c *Console) saveTenant(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	var body obj
	var paths map[string]string
	var f *configForm
	var err error
	if text, ok := r.PostForm["config"]; ok {
		body, err = decodeObject(strings.Join(text, ""))
	} else {
		var t struct{ Tenant obj }
		if err := c.call(r, http.MethodGet, "/admin/tenants/"+esc(id), nil, &t); err != nil {
			c.done(w, r, "/console/tenants", "Refused: "+err.Error())
			return
		}
		f = parseConfigForm(r.PostForm, c.opts.Providers)
		if f.grow(r.PostForm.Get("action"), r.PostForm.Get("new_provider"), c.opts.Providers) {
			c.renderTenantForms(w, r, http.StatusOK, "", func(v *tenantView) { v.ConfigForm = f })
			return
		}
		body, paths = configBody(t.Tenant, f)
		if len(f.Problems) > 0 {
			err = errors.New("a number does not parse")
		}
	}
	var saved struct {
		Secrets []obj `json:"webhook_secrets"`
	}
	if err == nil {
		err = c.call(r, http.MethodPut, "/admin/tenants/"+esc(id), body, &saved)
		if err != nil && f != nil {
			f.refused(err, paths)
		}
	}
	if err != nil {
		msg := "Not saved: " + err.Error()
		if f != nil {
			msg = "Configuration not saved: see the fields marked below."
		}
		c.renderTenantForms(w, r, http.StatusUnprocessableEntity, msg, func(v *tenantView) {
			if f != nil {
				f.finish(c.opts.Providers)
				v.ConfigForm = f
				return
			}
			v.Config, v.ConfigForm.JSONOpen = r.PostForm.Get("config"), true // keep what the operator typed
		})
		return
	}
	if len(saved.Secrets) > 0 {
		c.renderTenantForms(w, r, http.StatusOK, "", func(v *tenantView) { v.NewWebhookSecrets = saved.Secrets })
		return
	}
	c.done(w, r, "/console/tenants/"+esc(id)+"#configuration", "Configuration saved.")
}

// renderTenantForms shows the tenant page with set applied to its view
// (a form as typed, a refused JSON text).
func (c *Console) renderTenantForms(w http.ResponseWriter, r *http.Request, status int, msg string, set func(v *tenantView)) {
	id := r.PathValue("id")
	v, fetchMsg := c.tenantView(r, id)
	if v == nil {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Tenant " + id, Nav: "tenants", Error: fetchMsg})
		return
	}
	set(v)
	c.render(w, r, status, "tenant", &page{Title: "Tenant " + id, Nav: "tenants", Error: cmp.Or(msg, fetchMsg), Data: v})
}
