package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

// testApprovalBefore checks that the state a gate's call would change, or
// why it could not be read, round-trips through create, get, list and a
// decision, and that a gate without either reads back without them.
func testApprovalBefore(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	read := approval("b1", "acme", 1, time.Hour)
	read.Tool, read.Action, read.Category = "google_ads_campaigns", "update_budget", "ads_mutate"
	read.Before = json.RawMessage(`{"currency":"EUR","daily_budget":50.25}`)
	failed := approval("b2", "acme", 2, time.Hour)
	failed.Tool, failed.Action, failed.Category = "meta_ads_campaigns", "update_status", "ads_mutate"
	failed.BeforeError = "the provider did not answer within 5s"
	none := approval("b3", "acme", 3, time.Hour)
	for _, a := range []*gtmgate.Approval{read, failed, none} {
		must(t, s.CreateApproval(ctx, a))
	}
	for _, want := range []*gtmgate.Approval{read, failed, none} {
		got, err := s.GetApproval(ctx, want.ID)
		must(t, err)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GetApproval %s (-want +got):\n%s", want.ID, diff)
		}
	}
	list, err := s.ListApprovals(ctx, gtmgate.ApprovalFilter{TenantID: "acme"})
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.Approval{none, failed, read}, list); diff != "" {
		t.Errorf("ListApprovals (-want +got):\n%s", diff)
	}
	// A decision keeps what was read when the call was held.
	at := t0.Add(timeStep(5))
	dec, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "b1", Status: gtmgate.ApprovalApproved, DecidedBy: "ops", At: at})
	must(t, err)
	if string(dec.Before) != string(read.Before) {
		t.Errorf("decided gate's before = %s, want %s", dec.Before, read.Before)
	}
}
