// Package agenttools holds the tools of the "agents" domain that the gateway
// answers itself: submit_feedback and approval_status.
package agenttools

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// Store is what these tools need.
type Store interface {
	gtmgate.FeedbackStore
	gtmgate.ApprovalStore
}

// Tools returns submit_feedback and approval_status.
func Tools(store Store, now func() time.Time) []gtmgate.Tool {
	if now == nil {
		now = time.Now
	}
	return []gtmgate.Tool{feedbackTool(store, now), approvalStatusTool(store, now)}
}

func str(max int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(max)}
}

func feedbackTool(store Store, now func() time.Time) gtmgate.Tool {
	return gtmgate.Tool{
		Name:        "submit_feedback",
		Domain:      "agents",
		Title:       "Report a blocker to the operator",
		Description: "Tell the operator what blocked or slowed you: a tool that failed, returned wrong data, or is missing. Once per problem.",
		Actions: []gtmgate.Action{{Name: "submit", Category: gtmgate.CategoryErrorRecovery, Mutating: true, Additive: true,
			Required: []string{"attempted_action", "expected_outcome", "actual_outcome", "severity"}}},
		Properties: map[string]*jsonschema.Schema{
			"attempted_action": str(2000),
			"expected_outcome": str(2000),
			"actual_outcome":   str(2000),
			"tool_called":      {Type: "string", MaxLength: jsonschema.Ptr(128)},
			"error_seen":       {Type: "string", MaxLength: jsonschema.Ptr(4000)},
			"severity": {Type: "string", Enum: []any{gtmgate.SeverityLow, gtmgate.SeverityMed, gtmgate.SeverityHigh},
				Description: "low: a workaround exists; med: this workflow is blocked; high: the gateway is unusable."},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in struct {
				AttemptedAction string `json:"attempted_action"`
				ExpectedOutcome string `json:"expected_outcome"`
				ActualOutcome   string `json:"actual_outcome"`
				ToolCalled      string `json:"tool_called"`
				ErrorSeen       string `json:"error_seen"`
				Severity        string `json:"severity"`
			}
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			f := &gtmgate.Feedback{
				ID: gtmgate.NewID("fb_"), TenantID: call.TenantID, Time: now(), RequestID: call.RequestID,
				AttemptedAction: in.AttemptedAction, ExpectedOutcome: in.ExpectedOutcome, ActualOutcome: in.ActualOutcome,
				ToolCalled: in.ToolCalled, ErrorSeen: in.ErrorSeen, Severity: in.Severity,
			}
			if err := store.AddFeedback(ctx, f); err != nil {
				return nil, err
			}
			return map[string]any{"feedback_id": f.ID, "recorded": true, "severity": f.Severity,
				"message": "Thank you: the operator will see this in the feedback inbox."}, nil
		},
	}
}
