package quality

import (
	"slices"

	"github.com/gtmgate/gtmgate"
)

// Combine forms the panel from the judges' valid verdicts (at least one):
// the median quality (the lower middle for an even count), the issues named
// by at least two judges, the majority category, the quality spread, and a
// routing defect when the judges disagree on the category or their majority
// differs from the tool's expected category.
func Combine(verdicts []*gtmgate.Verdict, expected gtmgate.Category) *gtmgate.Panel {
	p := &gtmgate.Panel{Judges: len(verdicts), Issues: []gtmgate.Issue{}}
	if len(verdicts) == 0 {
		return p
	}
	qs := make([]int, len(verdicts))
	cats := map[gtmgate.Category]int{}
	issues := map[gtmgate.Issue]int{}
	for i, v := range verdicts {
		qs[i] = v.Quality
		cats[v.Category]++
		for _, is := range uniqueIssues(v.Issues) {
			issues[is]++
		}
	}
	slices.Sort(qs)
	p.Quality = qs[(len(qs)-1)/2]
	p.Spread = qs[len(qs)-1] - qs[0]
	need := 2
	if len(verdicts) == 1 {
		need = 1
	}
	for _, is := range gtmgate.Issues {
		if issues[is] >= need {
			p.Issues = append(p.Issues, is)
		}
	}
	for c, n := range cats {
		if n*2 > len(verdicts) {
			p.Category = c
		}
	}
	p.RoutingDefect = len(cats) > 1 || p.Category != expected
	return p
}

func uniqueIssues(in []gtmgate.Issue) []gtmgate.Issue {
	var out []gtmgate.Issue
	for _, i := range in {
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// Alerting reports whether a graded verdict raises an alert: panel quality
// at or below bad, or any judge naming unsafe_action.
func Alerting(v *gtmgate.GraderVerdict, bad int) bool {
	if v.Panel == nil {
		return false
	}
	if v.Panel.Quality <= bad {
		return true
	}
	for _, j := range v.Judges {
		if j.Verdict != nil && slices.Contains(j.Verdict.Issues, gtmgate.IssueUnsafeAction) {
			return true
		}
	}
	return false
}
