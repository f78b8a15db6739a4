package metaads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// campaignJSON renders a campaign as the Graph API does: budgets as strings of minor units.
func (a *sbAccount) campaignJSON(c *sbCampaign) map[string]any {
	m := map[string]any{"id": c.ID, "name": c.Name, "status": c.Status, "effective_status": c.Status, "objective": c.Objective,
		"account_id": a.ID, "bid_strategy": "LOWEST_COST_WITHOUT_CAP", "buying_type": "AUCTION",
		"start_time": "2025-01-06T09:00:00-0500", "created_time": "2025-01-03T16:21:44-0500"}
	if c.DailyBudget > 0 {
		m["daily_budget"] = strconv.FormatInt(c.DailyBudget, 10)
		m["budget_remaining"] = strconv.FormatInt(c.DailyBudget*55/100, 10)
	}
	if c.LifetimeBudget > 0 {
		m["lifetime_budget"] = strconv.FormatInt(c.LifetimeBudget, 10)
		m["budget_remaining"] = strconv.FormatInt(c.LifetimeBudget*38/100, 10)
		m["stop_time"] = "2025-09-30T23:59:00-0400"
	}
	return m
}

// checkCampaignFields answers Graph's error for a requested field Campaign
// does not have and reports whether all of them exist.
func checkCampaignFields(w http.ResponseWriter, form url.Values) bool {
	for _, f := range strings.Split(form.Get("fields"), ",") {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(graphCampaignFields, f) {
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Tried accessing nonexisting field (%s) on node type (Campaign)", f))
			return false
		}
	}
	return true
}

func (s *Sandbox) listCampaigns(w http.ResponseWriter, a *sbAccount, self string, form url.Values) {
	if !checkCampaignFields(w, form) {
		return
	}
	var statuses []string
	if es := form.Get("effective_status"); es != "" {
		if err := json.Unmarshal([]byte(es), &statuses); err != nil {
			writeGraphError(w, 400, 100, "(#100) Param effective_status must be an array")
			return
		}
	}
	// The edge takes no filtering parameter (the spec's checks refuse it).
	var rows []map[string]any
	for _, c := range a.Campaigns {
		if len(statuses) == 0 || slices.Contains(statuses, c.Status) {
			rows = append(rows, pick(a.campaignJSON(c), form.Get("fields"), "id"))
		}
	}
	writePage(w, self, rows, form)
}

// updateCampaign applies status and budget changes, checking them the way Meta does.
func (s *Sandbox) updateCampaign(w http.ResponseWriter, a *sbAccount, c *sbCampaign, form url.Values) {
	if c.Status == "ARCHIVED" || c.Status == "DELETED" {
		writeGraphError(w, 400, 100, "(#100) Cannot edit an archived or deleted campaign")
		return
	}
	status := c.Status
	if v := form.Get("status"); v != "" {
		if !slices.Contains([]string{"ACTIVE", "PAUSED", "ARCHIVED", "DELETED"}, v) {
			writeGraphError(w, 400, 100, "(#100) Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}")
			return
		}
		status = v
	}
	daily, lifetime := c.DailyBudget, c.LifetimeBudget
	minimum := int64(minorPerUnit(a.Currency))
	for field, dst := range map[string]*int64{"daily_budget": &daily, "lifetime_budget": &lifetime} {
		v := form.Get(field)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil:
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Param %s must be an integer", field))
			return
		case n < minimum:
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Your budget is too low. The minimum %s for this campaign is %d", field, minimum))
			return
		case field == "daily_budget" && c.LifetimeBudget > 0, field == "lifetime_budget" && c.DailyBudget > 0:
			writeGraphError(w, 400, 100, fmt.Sprintf("(#100) Cannot set %s: the campaign uses the other budget type", field))
			return
		}
		*dst = n
	}
	c.Status, c.DailyBudget, c.LifetimeBudget = status, daily, lifetime
	writeJSON(w, 200, map[string]any{"success": true})
}
