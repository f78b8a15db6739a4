package modelsandbox

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Demo tasks the sandbox chat model plans tool calls for (documented on the
// docs' sandbox page). A task containing "ad spend" follows the ad review
// plan; one containing "pipeline" or "deals" the pipeline plan.
const (
	TaskAdReview = "Review last week's ad spend against plan and email me the three biggest deviations."
	TaskPipeline = "Summarise the open deals in our pipeline."
)

// DemoRecipient is where the ad review plan emails its findings.
const DemoRecipient = "ops@demo.example"

// plannedCall is one tool call of a plan.
type plannedCall struct {
	tool string
	args map[string]any
}

// agentTurn answers a request that offers tools: the next call of the
// task's plan, or the final answer once every call of the plan has a
// result. ok is false when the task is not a demo task.
func agentTurn(req request) (call *plannedCall, answer string, ok bool) {
	task := strings.ToLower(firstUser(req.Messages))
	results := toolResults(req.Messages)
	offered := map[string]bool{}
	for _, t := range req.Tools {
		offered[t.Function.Name] = true
	}
	var plan []func([]json.RawMessage) plannedCall
	var final func([]json.RawMessage) string
	switch {
	case strings.Contains(task, "ad spend"):
		plan, final = adReviewPlan()
	case strings.Contains(task, "pipeline") || strings.Contains(task, "deals"):
		plan = []func([]json.RawMessage) plannedCall{func([]json.RawMessage) plannedCall {
			return plannedCall{"crm_deals", map[string]any{"action": "list", "limit": 50, "rationale": "List the deals to summarise the pipeline."}}
		}}
		final = pipelineAnswer
	default:
		return nil, "", false
	}
	if len(results) < len(plan) {
		next := plan[len(results)](results)
		if !offered[next.tool] {
			return nil, fmt.Sprintf("The sandbox plan for this task needs the tool %s, which this run was not given.", next.tool), true
		}
		return &next, "", true
	}
	return nil, final(results), true
}

func adReviewPlan() ([]func([]json.RawMessage) plannedCall, func([]json.RawMessage) string) {
	plan := []func([]json.RawMessage) plannedCall{
		func([]json.RawMessage) plannedCall {
			return plannedCall{"google_ads_campaigns", map[string]any{"action": "list", "rationale": "List the campaigns whose spend to review."}}
		},
		func([]json.RawMessage) plannedCall {
			return plannedCall{"google_ads_report", map[string]any{"resource": "campaign", "fields": []string{"name"},
				"metrics": []string{"cost_micros", "clicks", "conversions"}, "date_range": "LAST_7_DAYS",
				"rationale": "Last week's spend per campaign, to compare with plan."}}
		},
		func(results []json.RawMessage) plannedCall {
			return plannedCall{"email_send", map[string]any{"action": "send", "to": []string{DemoRecipient},
				"subject": "Ad spend last week: the three biggest deviations", "text": deviations(results[1]),
				"rationale": "Email the three biggest deviations, as the task asks."}}
		},
	}
	final := func(results []json.RawMessage) string {
		if e := resultError(results[2]); e != "" {
			return "I reviewed last week's ad spend, but the email was not sent: " + e + "\n\n" + deviations(results[1])
		}
		return "I reviewed last week's ad spend and emailed the three biggest deviations to " + DemoRecipient + ".\n\n" + deviations(results[1])
	}
	return plan, final
}

// deviations lists the three campaigns whose spend is furthest from the
// average of the report's rows (the sandbox's stand-in for a plan).
func deviations(report json.RawMessage) string {
	rows := reportRows(report)
	if len(rows) == 0 {
		return "The report had no campaign rows, so there is nothing to compare."
	}
	var total float64
	for _, r := range rows {
		total += r.cost
	}
	mean := total / float64(len(rows))
	sort.SliceStable(rows, func(i, j int) bool { return abs(rows[i].cost-mean) > abs(rows[j].cost-mean) })
	var b strings.Builder
	fmt.Fprintf(&b, "Spend per campaign against an even plan of %.2f:\n", mean)
	for _, r := range rows[:min(3, len(rows))] {
		fmt.Fprintf(&b, "- %s: %.2f (%+.0f%%)\n", r.name, r.cost, 100*(r.cost-mean)/max(mean, 0.01))
	}
	return b.String()
}

type costRow struct {
	name string
	cost float64
}

// reportRows reads campaign names and costs from a Google Ads report result.
func reportRows(raw json.RawMessage) []costRow {
	var body struct {
		Result struct {
			Rows []map[string]any `json:"items"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return nil
	}
	var out []costRow
	for _, row := range body.Result.Rows {
		r := costRow{name: fmt.Sprint(row["campaign.name"])}
		switch v := row["metrics.cost"].(type) {
		case float64:
			r.cost = v
		default:
			if micros, ok := row["metrics.cost_micros"].(float64); ok {
				r.cost = micros / 1e6
			}
		}
		out = append(out, r)
	}
	return out
}

func pipelineAnswer(results []json.RawMessage) string {
	if e := resultError(results[0]); e != "" {
		return "I could not list the deals: " + e
	}
	var body struct {
		Result struct {
			Items []struct {
				Properties map[string]any `json:"properties"`
			} `json:"items"`
		} `json:"result"`
	}
	json.Unmarshal(results[0], &body)
	var total float64
	stages := map[string]int{}
	for _, d := range body.Result.Items {
		if a, ok := d.Properties["amount"].(string); ok {
			var f float64
			fmt.Sscan(a, &f)
			total += f
		}
		stages[fmt.Sprint(d.Properties["dealstage"])]++
	}
	return fmt.Sprintf("The pipeline holds %d deals worth %.0f in total, across %d stages.", len(body.Result.Items), total, len(stages))
}

// resultError returns a tool message's error message, or "".
func resultError(raw json.RawMessage) string {
	var body struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) != nil || body.Error == nil {
		return ""
	}
	return body.Error.Code + ": " + body.Error.Message
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func firstUser(ms []message) string {
	for _, m := range ms {
		if m.Role == "user" {
			return m.text()
		}
	}
	return ""
}

// toolResults are the tool messages' contents, in order.
func toolResults(ms []message) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range ms {
		if m.Role == "tool" {
			out = append(out, json.RawMessage(m.text()))
		}
	}
	return out
}

// briefAnswer writes the daily brief when asked to (a system prompt naming
// the daily brief and a ```json figures block), from the figures alone.
func briefAnswer(ms []message) (string, bool) {
	if len(ms) == 0 || ms[0].Role != "system" || !strings.Contains(ms[0].text(), "daily brief") {
		return "", false
	}
	_, rest, ok := strings.Cut(lastUser(ms), "```json")
	if !ok {
		return "", false
	}
	block, _, _ := strings.Cut(rest, "```")
	var f struct {
		Calls     int `json:"calls"`
		Errors    int `json:"errors"`
		Incidents struct {
			OpenNow int `json:"open_now"`
		} `json:"incidents"`
		Approvals struct {
			Waiting int `json:"waiting"`
		} `json:"approvals"`
		Reauth    []any `json:"reauth"`
		AgentRuns struct {
			Started int `json:"started"`
		} `json:"agent_runs"`
		APIVersions []struct {
			Message string `json:"message"`
		} `json:"api_versions"`
	}
	if json.Unmarshal([]byte(block), &f) != nil {
		return "", false
	}
	var versions strings.Builder
	for _, v := range f.APIVersions {
		versions.WriteString("- " + v.Message + "\n")
	}
	if versions.Len() > 0 {
		versions.WriteString("\n")
	}
	return fmt.Sprintf("# Daily brief (written by the sandbox model)\n\n"+
		"%d tool calls with %d errors in the last 24 hours; %d incident(s) open, %d approval(s) waiting, "+
		"%d account(s) to re-authorise, %d agent run(s) started.\n\n%s"+
		"This brief was written by gtmgate's sandbox model from the figures alone; a real model writes a fuller one.\n",
		f.Calls, f.Errors, f.Incidents.OpenNow, f.Approvals.Waiting, len(f.Reauth), f.AgentRuns.Started, versions.String()), true
}
