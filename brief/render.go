package brief

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Render writes the figures as markdown, the same way every time: the
// brief when no model writes it.
func Render(f *Figures, loc *time.Location) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Daily brief — %s\n\n", f.To.In(loc).Format("Monday 2 January 2006"))
	p("Covers %s to %s (%s).\n\n", f.From.In(loc).Format("2 Jan 15:04"), f.To.In(loc).Format("2 Jan 15:04"), loc)

	p("## Needs attention\n\n")
	var attention []string
	if n := f.Incidents.OpenNow; n > 0 {
		attention = append(attention, fmt.Sprintf("%d quality incident(s) open", n))
	}
	if n := f.Approvals.Waiting; n > 0 {
		attention = append(attention, fmt.Sprintf("%d approval(s) waiting for a decision", n))
	}
	if n := len(f.Reauth); n > 0 {
		attention = append(attention, fmt.Sprintf("%d provider account(s) need re-authorisation", n))
	}
	for _, v := range f.APIVersions {
		attention = append(attention, v.Message)
	}
	if f.Calls > 0 && f.Errors*10 >= f.Calls {
		attention = append(attention, fmt.Sprintf("error rate %.0f%% (%d of %d calls)", 100*float64(f.Errors)/float64(f.Calls), f.Errors, f.Calls))
	}
	if len(attention) == 0 {
		p("Nothing: no open incident, no approval waiting, no account to re-authorise.\n\n")
	} else {
		for _, a := range attention {
			p("- %s\n", a)
		}
		p("\n")
	}

	p("## Calls and errors\n\n")
	if f.Calls == 0 {
		p("No tool calls.\n\n")
	} else {
		p("%d tool calls, %d errors.\n\n| tenant | tool | calls | errors | p95 ms |\n|---|---|---:|---:|---:|\n", f.Calls, f.Errors)
		for _, t := range f.Tenants {
			for _, tool := range t.Tools {
				p("| %s | %s | %d | %d | %.1f |\n", t.TenantID, tool.Tool, tool.Calls, tool.Errors, tool.P95MS)
			}
		}
		p("\n")
	}

	p("## Incidents and quality\n\n")
	if len(f.Incidents.Opened) == 0 {
		p("No incident opened; %d open in all.\n\n", f.Incidents.OpenNow)
	} else {
		for _, i := range f.Incidents.Opened {
			p("- %s on %s of %s, %s (now %s)\n", i.ID, i.Path, i.TenantID, i.Time.In(loc).Format("15:04"), i.Status)
		}
		p("\n")
	}
	if len(f.Quality) == 0 {
		p("No graded verdicts.\n\n")
	} else {
		p("| tenant | tool path | verdicts | mean quality | bad |\n|---|---|---:|---:|---:|\n")
		for _, q := range f.Quality {
			p("| %s | %s | %d | %.2f | %d |\n", q.TenantID, q.Path, q.Verdicts, q.MeanQuality, q.Bad)
		}
		p("\n")
	}

	p("## Approvals waiting\n\n")
	if f.Approvals.Waiting == 0 {
		p("None.\n\n")
	} else {
		p("%d waiting; the oldest:\n\n", f.Approvals.Waiting)
		for _, a := range f.Approvals.Oldest {
			p("- %s: %s for %s, since %s\n", a.ID, a.Path, a.TenantID, a.CreatedAt.In(loc).Format("2 Jan 15:04"))
		}
		p("\n")
	}

	p("## Feedback\n\n")
	if f.Feedback.Received == 0 {
		p("None received.\n\n")
	} else {
		p("%d received: %s.\n\n", f.Feedback.Received, counts(f.Feedback.BySeverity))
	}

	p("## Accounts needing re-authorisation\n\n")
	if len(f.Reauth) == 0 {
		p("None.\n\n")
	} else {
		for _, a := range f.Reauth {
			p("- %s %s of %s", a.Provider, a.AccountID, a.TenantID)
			if a.Reason != "" {
				p(": %s", a.Reason)
			}
			p("; send a re-connect link: `gtmgate admin reconnect %s %s %s`\n", a.TenantID, a.Provider, a.AccountID)
		}
		p("\n")
	}

	p("## Agent runs and tokens\n\n")
	if f.Agents.Started == 0 {
		p("No agent runs started.\n")
	} else {
		p("%d runs started: %s.\n", f.Agents.Started, counts(f.Agents.ByStatus))
	}
	p("%d tool calls; %d prompt and %d completion tokens", f.Cost.ToolCalls, f.Cost.PromptTokens, f.Cost.CompletionTokens)
	if len(f.Cost.ByModel) > 0 {
		var ms []string
		for _, m := range f.Cost.ByModel {
			ms = append(ms, fmt.Sprintf("%s %d", m.Model, m.PromptTokens+m.CompletionTokens))
		}
		p(" (%s)", strings.Join(ms, ", "))
	}
	p(".\n")
	return b.String()
}

// counts writes a count map as "a 2, b 1", largest first.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
