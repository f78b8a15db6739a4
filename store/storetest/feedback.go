package storetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func testFeedback(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	fb := func(id, tenant, severity string, step int) *gtmgate.Feedback {
		return &gtmgate.Feedback{ID: id, TenantID: tenant, Time: t0.Add(timeStep(step)), AttemptedAction: "create deal",
			ExpectedOutcome: "deal", ActualOutcome: "403", ToolCalled: "crm_deals", ErrorSeen: "FORBIDDEN",
			Severity: severity, RequestID: "req-" + id}
	}
	f1, f2, f3 := fb("f1", "acme", gtmgate.SeverityHigh, 1), fb("f2", "acme", gtmgate.SeverityLow, 2), fb("f3", "beta", gtmgate.SeverityHigh, 3)
	for _, f := range []*gtmgate.Feedback{f1, f2, f3} {
		must(t, s.AddFeedback(ctx, f))
	}
	wantErr(t, s.AddFeedback(ctx, fb("f1", "acme", gtmgate.SeverityLow, 4)), gtmgate.ErrConflict)

	_, err := s.ResolveFeedback(ctx, "nope", "ops@x", t0)
	wantErr(t, err, gtmgate.ErrNotFound)
	resolvedAt := t0.Add(timeStep(10))
	got, err := s.ResolveFeedback(ctx, "f2", "ops@x", resolvedAt)
	must(t, err)
	want := *f2
	want.ResolvedAt, want.ResolvedBy = &resolvedAt, "ops@x"
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("ResolveFeedback (-want +got):\n%s", diff)
	}
	again, err := s.ResolveFeedback(ctx, "f2", "someone@else", resolvedAt.Add(timeStep(1)))
	must(t, err)
	if diff := cmp.Diff(&want, again); diff != "" {
		t.Errorf("resolving twice changed the first resolution (-want +got):\n%s", diff)
	}

	yes, no := true, false
	for _, tc := range []struct {
		name string
		f    gtmgate.FeedbackFilter
		want []string
	}{
		{"all newest first", gtmgate.FeedbackFilter{}, []string{"f3", "f2", "f1"}},
		{"tenant", gtmgate.FeedbackFilter{TenantID: "acme"}, []string{"f2", "f1"}},
		{"severity", gtmgate.FeedbackFilter{Severity: gtmgate.SeverityHigh}, []string{"f3", "f1"}},
		{"since", gtmgate.FeedbackFilter{Since: t0.Add(timeStep(2))}, []string{"f3", "f2"}},
		{"resolved", gtmgate.FeedbackFilter{Resolved: &yes}, []string{"f2"}},
		{"open", gtmgate.FeedbackFilter{Resolved: &no}, []string{"f3", "f1"}},
		{"open of tenant", gtmgate.FeedbackFilter{TenantID: "acme", Resolved: &no}, []string{"f1"}},
		{"limit", gtmgate.FeedbackFilter{Limit: 1}, []string{"f3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := s.ListFeedback(ctx, tc.f)
			must(t, err)
			var ids []string
			for _, f := range list {
				ids = append(ids, f.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}
