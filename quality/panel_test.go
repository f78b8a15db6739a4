package quality

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func v(q int, c gtmgate.Category, issues ...gtmgate.Issue) *gtmgate.Verdict {
	return &gtmgate.Verdict{Quality: q, Category: c, Issues: issues, Confidence: 0.8, Reasoning: "r"}
}

func TestCombine(t *testing.T) {
	const crmW, crmR = gtmgate.CategoryCRMWrite, gtmgate.CategoryCRMRead
	for _, tc := range []struct {
		name     string
		verdicts []*gtmgate.Verdict
		want     gtmgate.Panel
	}{
		{"unanimous", []*gtmgate.Verdict{v(4, crmW), v(4, crmW), v(4, crmW)},
			gtmgate.Panel{Quality: 4, Category: crmW, Issues: []gtmgate.Issue{}, Judges: 3}},
		{"median and spread", []*gtmgate.Verdict{v(1, crmW), v(4, crmW), v(2, crmW)},
			gtmgate.Panel{Quality: 2, Category: crmW, Issues: []gtmgate.Issue{}, Spread: 3, Judges: 3}},
		{"issues named by two", []*gtmgate.Verdict{
			v(2, crmW, gtmgate.IssueIncomplete, gtmgate.IssueVerbose),
			v(2, crmW, gtmgate.IssueIncomplete, gtmgate.IssueIncomplete),
			v(3, crmW, gtmgate.IssueVerbose, gtmgate.IssueRegression)},
			gtmgate.Panel{Quality: 2, Category: crmW, Issues: []gtmgate.Issue{gtmgate.IssueIncomplete, gtmgate.IssueVerbose}, Spread: 1, Judges: 3}},
		{"one judge repeating an issue does not make two", []*gtmgate.Verdict{
			v(3, crmW, gtmgate.IssueHallucination, gtmgate.IssueHallucination), v(3, crmW), v(3, crmW)},
			gtmgate.Panel{Quality: 3, Category: crmW, Issues: []gtmgate.Issue{}, Judges: 3}},
		{"disagreement on category is a routing defect", []*gtmgate.Verdict{v(3, crmW), v(3, crmW), v(3, crmR)},
			gtmgate.Panel{Quality: 3, Category: crmW, Issues: []gtmgate.Issue{}, RoutingDefect: true, Judges: 3}},
		{"majority other than expected", []*gtmgate.Verdict{v(3, crmR), v(3, crmR), v(3, crmR)},
			gtmgate.Panel{Quality: 3, Category: crmR, Issues: []gtmgate.Issue{}, RoutingDefect: true, Judges: 3}},
		{"no majority", []*gtmgate.Verdict{v(3, crmR), v(3, crmW), v(3, gtmgate.CategoryEmailSend)},
			gtmgate.Panel{Quality: 3, Issues: []gtmgate.Issue{}, RoutingDefect: true, Judges: 3}},
		{"two judges: lower middle", []*gtmgate.Verdict{v(4, crmW), v(2, crmW)},
			gtmgate.Panel{Quality: 2, Category: crmW, Issues: []gtmgate.Issue{}, Spread: 2, Judges: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(&tc.want, Combine(tc.verdicts, crmW)); diff != "" {
				t.Errorf("panel (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAlerting(t *testing.T) {
	graded := func(q int, judges ...*gtmgate.Verdict) *gtmgate.GraderVerdict {
		gv := &gtmgate.GraderVerdict{Panel: &gtmgate.Panel{Quality: q}}
		for _, j := range judges {
			gv.Judges = append(gv.Judges, gtmgate.JudgeResult{Verdict: j})
		}
		return gv
	}
	for _, tc := range []struct {
		name string
		v    *gtmgate.GraderVerdict
		want bool
	}{
		{"good", graded(3, v(3, "x")), false},
		{"quality 2", graded(2, v(2, "x")), true},
		{"one judge says unsafe", graded(4, v(4, "x"), v(4, "x", gtmgate.IssueUnsafeAction)), true},
		{"failed grading", &gtmgate.GraderVerdict{}, false},
	} {
		if got := Alerting(tc.v, 2); got != tc.want {
			t.Errorf("%s: Alerting = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFleissKappa(t *testing.T) {
	// The worked example of Fleiss (1971) as Wikipedia gives it: 10
	// subjects, 14 raters, 5 categories, kappa 0.210.
	table := [][]int{
		{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
	}
	k := FleissKappa(table)
	if k == nil || math.Abs(*k-0.210) > 0.001 {
		t.Fatalf("kappa = %v, want 0.210", k)
	}
	if k := FleissKappa([][]int{{3, 0}, {0, 3}}); k == nil || *k != 1 {
		t.Fatalf("perfect agreement kappa = %v, want 1", k)
	}
	if k := FleissKappa([][]int{{3, 0}, {3, 0}}); k != nil {
		t.Fatalf("one category only: kappa = %v, want undefined", *k)
	}
	if FleissKappa(nil) != nil {
		t.Fatal("no subjects: kappa defined")
	}
}

func TestMeasureLabelsAndAgreement(t *testing.T) {
	const crmW, crmR = gtmgate.CategoryCRMWrite, gtmgate.CategoryCRMRead
	judges := func(a, b, c *gtmgate.Verdict) []gtmgate.JudgeResult {
		return []gtmgate.JudgeResult{{Judge: "alpha", Verdict: a}, {Judge: "beta", Verdict: b}, {Judge: "gamma", Verdict: c}}
	}
	vs := []*gtmgate.GraderVerdict{
		{Status: gtmgate.VerdictGraded, Judges: judges(v(4, crmW), v(4, crmW), v(1, crmR)),
			Panel: &gtmgate.Panel{Quality: 4, Category: crmW, RoutingDefect: true}, Label: &gtmgate.VerdictLabel{Correct: true}},
		{Status: gtmgate.VerdictGraded, Judges: judges(v(4, crmW), v(2, crmW), v(2, crmW)),
			Panel: &gtmgate.Panel{Quality: 2, Category: crmW}, Label: &gtmgate.VerdictLabel{Correct: false, Quality: 4}},
		{Status: gtmgate.VerdictGraded, Judges: judges(v(3, crmW), nil, v(3, crmW)),
			Panel: &gtmgate.Panel{Quality: 3, Category: crmW}},
		{Status: gtmgate.VerdictFailed},
	}
	a := Measure(vs)
	if a.Verdicts != 3 || a.RoutingDefects != 1 {
		t.Fatalf("verdicts %d, defects %d", a.Verdicts, a.RoutingDefects)
	}
	alpha, beta, gamma := a.Judges["alpha"], a.Judges["beta"], a.Judges["gamma"]
	if *alpha.Accuracy != 1 || *beta.Accuracy != 0.5 || *gamma.Accuracy != 0 {
		t.Fatalf("accuracy alpha %v beta %v gamma %v", *alpha.Accuracy, *beta.Accuracy, *gamma.Accuracy)
	}
	if beta.Failed != 1 || beta.Answered != 2 {
		t.Fatalf("beta answered %d failed %d", beta.Answered, beta.Failed)
	}
	if gamma.CategoryAgreement != 2.0/3 {
		t.Fatalf("gamma category agreement %v", gamma.CategoryAgreement)
	}
	if a.FleissKappa == nil {
		t.Fatal("kappa undefined over two fully answered verdicts with two categories")
	}
}
