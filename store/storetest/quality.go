package storetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate"
)

var pathRules = gtmgate.PathRules{BadQuality: 2, OpenAfter: 3, CloseAfter: 3}

// gradedVerdict returns a graded verdict of tenant's crm_contacts.create with
// the given panel quality, step minutes after t0.
func gradedVerdict(id, tenant string, quality, step int, issues ...gtmgate.Issue) *gtmgate.GraderVerdict {
	tr := &gtmgate.Trace{ID: "trc_" + id, Time: t0.Add(timeStep(step)), TenantID: tenant, Tool: "crm_contacts", Action: "create",
		Expected: gtmgate.CategoryCRMWrite, Mutating: true, Input: json.RawMessage(`{"rationale":"r"}`),
		InputShape: "crm_contacts.create{rationale:string}", Result: json.RawMessage(`{"id":"` + id + `"}`)}
	if issues == nil {
		issues = []gtmgate.Issue{}
	}
	return &gtmgate.GraderVerdict{ID: "vrd_" + id, TraceID: tr.ID, Time: tr.Time, TenantID: tenant, Tool: tr.Tool, Action: tr.Action,
		Expected: tr.Expected, Status: gtmgate.VerdictGraded, RubricVersion: "v1", Trace: tr,
		Judges: []gtmgate.JudgeResult{{Judge: gtmgate.JudgeAlpha, Model: "m", Verdict: &gtmgate.Verdict{Quality: quality,
			Category: gtmgate.CategoryCRMWrite, Issues: issues, Confidence: 0.9, Reasoning: "r"}, Attempts: 1}},
		Panel: &gtmgate.Panel{Quality: quality, Category: gtmgate.CategoryCRMWrite, Issues: issues, Judges: 3}}
}

func testVerdictsAndIncidents(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, err := s.GetVerdict(ctx, "vrd_none")
	wantErr(t, err, gtmgate.ErrNotFound)

	// Two bad verdicts: degraded, no incident yet.
	for i := 1; i <= 2; i++ {
		v, err := s.RecordVerdict(ctx, gradedVerdict(fmt.Sprint("b", i), "acme", 2, i, gtmgate.IssueIncomplete), pathRules)
		must(t, err)
		if v.IncidentID != "" {
			t.Fatalf("verdict %d opened an incident", i)
		}
	}
	// Another tenant's bad verdict does not count towards acme's streak.
	_, err = s.RecordVerdict(ctx, gradedVerdict("other", "beta", 1, 3), pathRules)
	must(t, err)
	states, err := s.ListPathStates(ctx, "", true)
	must(t, err)
	if len(states) != 2 || states[0].TenantID != "acme" || states[0].ConsecutiveBad != 2 || !states[0].Degraded {
		t.Fatalf("degraded states = %+v", states)
	}
	_, err = s.OpenIncident(ctx, "acme", "crm_contacts")
	wantErr(t, err, gtmgate.ErrNotFound)

	third := gradedVerdict("b3", "acme", 1, 4, gtmgate.IssueUnsafeAction)
	third.Trace.Key = "tok_agent" // the agent whose call it graded
	v, err := s.RecordVerdict(ctx, third, pathRules)
	must(t, err)
	if v.IncidentID == "" || v.IncidentEvent != "opened" {
		t.Fatalf("third bad verdict: incident %q %q", v.IncidentID, v.IncidentEvent)
	}
	// Recording the same verdict again (a retried job) changes nothing and
	// returns the incident it opened.
	again, err := s.RecordVerdict(ctx, third, pathRules)
	must(t, err)
	if again.IncidentID != v.IncidentID {
		t.Fatalf("re-recorded verdict's incident = %q, want %q", again.IncidentID, v.IncidentID)
	}
	// A fourth bad verdict does not open a second incident.
	v4, err := s.RecordVerdict(ctx, gradedVerdict("b4", "acme", 2, 5), pathRules)
	must(t, err)
	if v4.IncidentID != "" {
		t.Fatalf("fourth bad verdict opened %q", v4.IncidentID)
	}
	inc, err := s.OpenIncident(ctx, "acme", "crm_contacts")
	must(t, err)
	if inc.ID != v.IncidentID || inc.Status != gtmgate.IncidentOpen || inc.Kind != gtmgate.LedgerIncident || !inc.Mutating {
		t.Fatalf("open incident = %+v", inc)
	}
	open2, err := s.ListLedger(ctx, gtmgate.LedgerFilter{Kind: gtmgate.LedgerIncident, Status: gtmgate.IncidentOpen})
	must(t, err)
	if len(open2) != 1 {
		t.Fatalf("open incidents = %d, want 1", len(open2))
	}

	// Filters.
	bad, err := s.ListVerdicts(ctx, gtmgate.VerdictFilter{TenantID: "acme", MaxQuality: 1})
	must(t, err)
	if len(bad) != 1 || bad[0].ID != "vrd_b3" {
		t.Fatalf("quality <= 1 = %v", ids(bad))
	}
	unsafe, err := s.ListVerdicts(ctx, gtmgate.VerdictFilter{Issue: gtmgate.IssueUnsafeAction})
	must(t, err)
	if len(unsafe) != 1 || unsafe[0].ID != "vrd_b3" {
		t.Fatalf("issue filter = %v", ids(unsafe))
	}
	agent, err := s.ListVerdicts(ctx, gtmgate.VerdictFilter{Key: "tok_agent"})
	must(t, err)
	if len(agent) != 1 || agent[0].ID != "vrd_b3" || agent[0].Trace.Key != "tok_agent" {
		t.Fatalf("key filter = %v", ids(agent))
	}
	all, err := s.ListVerdicts(ctx, gtmgate.VerdictFilter{Limit: 2})
	must(t, err)
	if len(all) != 2 || all[0].ID != "vrd_b4" {
		t.Fatalf("newest first, limit 2 = %v", ids(all))
	}

	// Three good verdicts close the incident and end the degradation; the
	// good result becomes its input class's known-good one.
	var closed *gtmgate.GraderVerdict
	for i := 1; i <= 3; i++ {
		closed, err = s.RecordVerdict(ctx, gradedVerdict(fmt.Sprint("g", i), "acme", 4, 5+i), pathRules)
		must(t, err)
	}
	if closed.IncidentID != v.IncidentID || closed.IncidentEvent != "closed" {
		t.Fatalf("third good verdict: %q %q", closed.IncidentID, closed.IncidentEvent)
	}
	e, err := s.GetLedgerEntry(ctx, v.IncidentID)
	must(t, err)
	if e.Status != gtmgate.IncidentResolved || e.ResolvedBy != "grader" || e.ResolvedAt == nil {
		t.Fatalf("closed incident = %+v", e)
	}
	kg, err := s.KnownGood(ctx, "acme", "crm_contacts.create{rationale:string}")
	must(t, err)
	if kg.TraceID != "trc_g3" || string(kg.Result) != `{"id":"g3"}` {
		t.Fatalf("known good = %+v", kg)
	}
	_, err = s.KnownGood(ctx, "beta", "crm_contacts.create{rationale:string}")
	wantErr(t, err, gtmgate.ErrNotFound)

	// Labels.
	l, err := s.LabelVerdict(ctx, "vrd_b3", gtmgate.VerdictLabel{Correct: false, Quality: 3, By: "admin"})
	must(t, err)
	if l.Label == nil || l.Label.Correct || l.Label.Quality != 3 {
		t.Fatalf("label = %+v", l.Label)
	}
	yes := true
	labelled, err := s.ListVerdicts(ctx, gtmgate.VerdictFilter{Labelled: &yes})
	must(t, err)
	if len(labelled) != 1 || labelled[0].Label == nil {
		t.Fatalf("labelled = %v", ids(labelled))
	}
	_, err = s.LabelVerdict(ctx, "vrd_none", gtmgate.VerdictLabel{Correct: true})
	wantErr(t, err, gtmgate.ErrNotFound)
	latest, err := s.LatestVerdict(ctx, "trc_b3")
	must(t, err)
	if latest.ID != "vrd_b3" {
		t.Fatalf("latest verdict of trc_b3 = %s", latest.ID)
	}
}

func ids(vs []*gtmgate.GraderVerdict) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

func testResolveIncident(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	var v *gtmgate.GraderVerdict
	for i := 1; i <= 3; i++ {
		var err error
		v, err = s.RecordVerdict(ctx, gradedVerdict(fmt.Sprint("r", i), "acme", 1, i), pathRules)
		must(t, err)
	}
	e, err := s.ResolveIncident(ctx, v.IncidentID, "admin", t0.Add(timeStep(10)))
	must(t, err)
	if e.Status != gtmgate.IncidentResolved || e.ResolvedBy != "admin" {
		t.Fatalf("resolved = %+v", e)
	}
	_, err = s.ResolveIncident(ctx, v.IncidentID, "admin", t0)
	wantErr(t, err, gtmgate.ErrConflict)
	_, err = s.ResolveIncident(ctx, "inc_none", "admin", t0)
	wantErr(t, err, gtmgate.ErrNotFound)
	// The streak starts again: two more bad verdicts open nothing, a third does.
	for i := 4; i <= 6; i++ {
		v, err = s.RecordVerdict(ctx, gradedVerdict(fmt.Sprint("r", i), "acme", 2, i), pathRules)
		must(t, err)
		if (i < 6) != (v.IncidentID == "") {
			t.Fatalf("verdict r%d: incident %q", i, v.IncidentID)
		}
	}
}

// testVerdictsConcurrent records bad verdicts of one path from many
// goroutines: exactly one incident opens.
func testVerdictsConcurrent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	opened := make(chan string, 12)
	for i := range 12 {
		wg.Go(func() {
			v, err := s.RecordVerdict(ctx, gradedVerdict(fmt.Sprint("c", i), "acme", 1, i), pathRules)
			if err != nil {
				t.Error(err)
				return
			}
			if v.IncidentID != "" {
				opened <- v.IncidentID
			}
		})
	}
	wg.Wait()
	close(opened)
	if n := len(opened); n != 1 {
		t.Fatalf("%d incidents opened by 12 concurrent bad verdicts, want 1", n)
	}
}

func testDeliveries(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	for i := 1; i <= 3; i++ {
		must(t, s.AddDelivery(ctx, &gtmgate.WebhookDelivery{WebhookID: "msg_1", Event: "quality.alert", TenantID: "acme", Attempt: i,
			Time: t0.Add(timeStep(i)), Status: 500, OK: i == 3, Error: "status 500"}))
	}
	must(t, s.AddDelivery(ctx, &gtmgate.WebhookDelivery{WebhookID: "msg_2", Event: "incident.opened", Attempt: 1, Time: t0, OK: true}))
	ds, err := s.ListDeliveries(ctx, gtmgate.DeliveryFilter{WebhookID: "msg_1"})
	must(t, err)
	if len(ds) != 3 || ds[0].Attempt != 3 || !ds[0].OK || ds[2].OK {
		t.Fatalf("deliveries = %+v", ds)
	}
	all, err := s.ListDeliveries(ctx, gtmgate.DeliveryFilter{Event: "incident.opened"})
	must(t, err)
	if len(all) != 1 {
		t.Fatalf("by event = %d", len(all))
	}
}
