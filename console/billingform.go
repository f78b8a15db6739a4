package console

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// billingForm is the Billing plan form's fields as shown or as typed.
// Numbers are kept as text, so a refused form shows what was typed.
type billingForm struct {
	formState
	// Exists says the tenant has a plan ("No billing plan yet" otherwise).
	Exists                                       bool
	Plan, Currency, Limit, BillingDay, Timezone  string
	IncludedCalls, IncludedTokens, MonthlyBudget string
	CallDefault, TokenInput, TokenOutput         string
	ByCategory                                   []categoryPrice
	ByModel                                      []modelPrice
}

// categoryPrice is the price of one call of a category ("" for the default).
type categoryPrice struct{ Name, Price string }

// InputID returns the id of the category's price input.
func (c categoryPrice) InputID() string { return "bill-cat-" + c.Name }

// modelPrice is one row of chat token prices by model.
type modelPrice struct {
	Index                int
	Model, Input, Output string
}

// Name returns the form name of one of the row's fields.
func (m modelPrice) Name(field string) string { return fmt.Sprintf("m%d.%s", m.Index, field) }

// InputID returns the id of one of the row's inputs.
func (m modelPrice) InputID(field string) string { return fmt.Sprintf("bill-m%d-%s", m.Index, field) }

func (m modelPrice) blank() bool { return m.Model == "" && m.Input == "" && m.Output == "" }

// billingCategories are the categories a plan prices: the tools' own and
// federated (an upstream MCP server's tools).
func billingCategories() []string {
	out := make([]string, 0, len(gtmgate.Categories)+1)
	for _, c := range gtmgate.Categories {
		out = append(out, string(c))
	}
	return append(out, gtmgate.BillingCategoryFederated)
}

// newBillingForm shows plan (as GET /admin/billing/{id} returns it; nil
// for none: the empty form).
func newBillingForm(plan obj) *billingForm {
	var p gtmgate.BillingPlan
	if plan != nil {
		b, _ := json.Marshal(plan)
		json.Unmarshal(b, &p)
	}
	f := &billingForm{Exists: plan != nil, Plan: p.Plan, Currency: p.Currency, Limit: p.Limit, Timezone: p.Timezone,
		BillingDay: wholeText(int64(p.BillingDay)), IncludedCalls: wholeText(p.IncludedCalls), IncludedTokens: wholeText(p.IncludedTokens),
		MonthlyBudget: numberText(p.MonthlyBudget), CallDefault: numberText(p.ToolCallPrice.Default),
		TokenInput: numberText(p.ChatTokenPrice.Default.Input), TokenOutput: numberText(p.ChatTokenPrice.Default.Output)}
	if plan == nil {
		f.Currency, f.Limit = "EUR", gtmgate.LimitSoft
	}
	for _, c := range billingCategories() {
		price := ""
		if v, ok := p.ToolCallPrice.ByCategory[c]; ok {
			price = strconv.FormatFloat(v, 'f', -1, 64) // a free category (0) is not a blank one
		}
		f.ByCategory = append(f.ByCategory, categoryPrice{Name: c, Price: price})
	}
	for _, m := range slices.Sorted(maps.Keys(p.ChatTokenPrice.ByModel)) {
		v := p.ChatTokenPrice.ByModel[m]
		f.ByModel = append(f.ByModel, modelPrice{Index: len(f.ByModel), Model: m, Input: numberText(v.Input), Output: numberText(v.Output)})
	}
	f.finish()
	return f
}

// parseBillingForm reads the form as typed.
func parseBillingForm(form url.Values) *billingForm {
	get := func(k string) string { return strings.TrimSpace(form.Get(k)) }
	f := &billingForm{Exists: form.Get("exists") != "", Plan: get("plan"), Currency: get("currency"), Limit: get("limit"),
		BillingDay: get("billing_day"), Timezone: get("timezone"), IncludedCalls: get("included_calls"),
		IncludedTokens: get("included_tokens"), MonthlyBudget: get("monthly_budget"), CallDefault: get("call_default"),
		TokenInput: get("token_input"), TokenOutput: get("token_output")}
	for _, c := range billingCategories() {
		f.ByCategory = append(f.ByCategory, categoryPrice{Name: c, Price: get("cat." + c)})
	}
	for i := 0; form.Has(fmt.Sprintf("m%d.model", i)); i++ {
		m := modelPrice{Index: i}
		m.Model, m.Input, m.Output = get(m.Name("model")), get(m.Name("input")), get(m.Name("output"))
		f.ByModel = append(f.ByModel, m)
	}
	return f
}

// grow carries out the "Add model" button, reporting whether it was it.
func (f *billingForm) grow(action string) bool {
	if action != "add-model" {
		return false
	}
	f.ByModel = append(f.ByModel, modelPrice{Index: len(f.ByModel)})
	return true
}

// finish ends the model rows with a blank one, to add a model.
func (f *billingForm) finish() {
	if n := len(f.ByModel); n == 0 || !f.ByModel[n-1].blank() {
		f.ByModel = append(f.ByModel, modelPrice{Index: n})
	}
}

// billingBody lays the form over base (the plan as the API returned it,
// nil for none) into the PUT /admin/billing/{id} body. production is the
// tenant's flag, which the plan's body also sets: it is passed on as it is
// (the Configuration form changes it). paths maps the body's JSON paths to
// the form's input ids; numbers that do not parse are recorded on f.
func billingBody(base obj, f *billingForm, production bool) (body obj, paths map[string]string) {
	body = obj{}
	for k, v := range base {
		if k != "tenant_id" && k != "updated_at" {
			body[k] = v
		}
	}
	paths = map[string]string{"plan": "bill-plan", "currency": "bill-currency", "limit": "bill-limit",
		"billing_day": "bill-day", "timezone": "bill-timezone", "included_calls": "bill-calls",
		"included_tokens": "bill-tokens", "monthly_budget": "bill-budget", "tool_call_price.default": "bill-call-default",
		"chat_token_price.default.input": "bill-token-input", "chat_token_price.default.output": "bill-token-output"}
	body["plan"], body["currency"], body["limit"], body["timezone"] = f.Plan, f.Currency, f.Limit, f.Timezone
	body["production"] = production
	day, _ := f.integer("bill-day", f.BillingDay)
	calls, _ := f.integer("bill-calls", f.IncludedCalls)
	tokens, _ := f.integer("bill-tokens", f.IncludedTokens)
	budget, _ := f.float("bill-budget", f.MonthlyBudget)
	body["billing_day"], body["included_calls"], body["included_tokens"], body["monthly_budget"] = day, calls, tokens, budget

	callPrices := obj{}
	if old, ok := base["tool_call_price"].(obj); ok {
		maps.Copy(callPrices, old)
	}
	callPrices["default"], _ = f.float("bill-call-default", f.CallDefault)
	byCategory := obj{}
	for _, c := range f.ByCategory {
		paths["tool_call_price.by_category."+c.Name] = c.InputID()
		if v, ok := f.float(c.InputID(), c.Price); ok {
			byCategory[c.Name] = v
		}
	}
	setOrDelete(callPrices, "by_category", byCategory)
	body["tool_call_price"] = callPrices

	in, _ := f.float("bill-token-input", f.TokenInput)
	out, _ := f.float("bill-token-output", f.TokenOutput)
	byModel := obj{}
	for _, m := range f.ByModel {
		if m.blank() {
			continue
		}
		if m.Model == "" {
			f.fail(m.InputID("model"), "a price needs the model it is for")
			continue
		}
		paths["chat_token_price.by_model."+m.Model+".input"] = m.InputID("input")
		paths["chat_token_price.by_model."+m.Model+".output"] = m.InputID("output")
		if byModel[m.Model] != nil {
			f.fail(m.InputID("model"), fmt.Sprintf("model %s has two rows", m.Model))
			continue
		}
		mi, _ := f.float(m.InputID("input"), m.Input)
		mo, _ := f.float(m.InputID("output"), m.Output)
		byModel[m.Model] = obj{"input": mi, "output": mo}
	}
	tokenPrices := obj{"default": obj{"input": in, "output": out}}
	setOrDelete(tokenPrices, "by_model", byModel)
	body["chat_token_price"] = tokenPrices
	return body, paths
}

// saveBilling saves the Billing plan form, or the plan's JSON when the
// "Edit as JSON" form was sent. A refusal shows the page again (422) with
// what was typed and the API's message beside the field it names.
func (c *Console) saveBilling(w http.ResponseWriter, r *http.Request, _ *session) {
	id := r.PathValue("id")
	to := "/console/tenants/" + esc(id) + "#billing"
	var t struct{ Tenant obj }
	if err := c.call(r, http.MethodGet, "/admin/tenants/"+esc(id), nil, &t); err != nil {
		c.done(w, r, to, "Billing plan not saved: "+err.Error())
		return
	}
	if text, ok := r.PostForm["billing"]; ok {
		plan, err := decodeObject(strings.Join(text, ""))
		if err == nil {
			err = c.call(r, http.MethodPut, "/admin/billing/"+esc(id), plan, nil)
		}
		if err != nil {
			c.renderTenantForms(w, r, http.StatusUnprocessableEntity, "Billing plan not saved: "+err.Error(), func(v *tenantView) {
				v.Billing, v.BillingForm.JSONOpen = strings.Join(text, ""), true
			})
			return
		}
		c.done(w, r, to, "Billing plan saved.")
		return
	}
	f := parseBillingForm(r.PostForm)
	if f.grow(r.PostForm.Get("action")) {
		c.renderTenantForms(w, r, http.StatusOK, "", func(v *tenantView) { v.BillingForm = f })
		return
	}
	var base obj
	if f.Exists {
		if err := c.call(r, http.MethodGet, "/admin/billing/"+esc(id), nil, &base); err != nil {
			base = nil // removed meanwhile: the form's fields are the plan
		}
	}
	production, _ := t.Tenant["production"].(bool)
	body, paths := billingBody(base, f, production)
	if len(f.Problems) == 0 {
		if err := c.call(r, http.MethodPut, "/admin/billing/"+esc(id), body, nil); err != nil {
			f.refused(err, paths)
		}
	}
	if len(f.Problems) > 0 {
		f.finish()
		c.renderTenantForms(w, r, http.StatusUnprocessableEntity, "Billing plan not saved: see the fields marked below.",
			func(v *tenantView) { v.BillingForm = f })
		return
	}
	c.done(w, r, to, "Billing plan saved.")
}
