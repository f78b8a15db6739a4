package chat

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/telemetry"
	"go.opentelemetry.io/otel/trace"
)

// Audit actions of the two routes.
const (
	actionCompletions = "chat.completions"
	actionModels      = "chat.models"
)

// recordTimeout bounds the write of a call's audit entry and usage event.
const recordTimeout = 5 * time.Second

// call collects what a request's audit entry and usage event need.
type call struct {
	action    string
	start     time.Time
	principal *gtmgate.Principal
	requestID string
	// correlationID is the client's X-Request-Id, if it sent one.
	correlationID string
	model         string

	upstreamStart time.Time
	upstreamEnd   time.Time
	status        int
	code          string // gtmgate error code, "" on success
	usage         usage
	// quota is the completion's place in its tenant's quotas, settled by
	// counting its usage event.
	quota gtmgate.QuotaReservation
}

// usage is the token count of an OpenAI usage object.
type usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

func newCall(r *http.Request, action string) *call {
	ctx := r.Context()
	return &call{
		action:        action,
		start:         time.Now(),
		principal:     gtmgate.PrincipalFromContext(ctx),
		requestID:     gtmgate.RequestIDFromContext(ctx),
		correlationID: gtmgate.CorrelationIDFromContext(ctx),
	}
}

// outcome is the audit outcome of the finished call.
func (c *call) outcome() string {
	switch {
	case c.code == "" && c.status < 400:
		return gtmgate.OutcomeOK
	case c.code == gtmgate.EForbidden || c.code == gtmgate.EUnauthorized:
		return gtmgate.OutcomeDenied
	default:
		return gtmgate.OutcomeError
	}
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// record persists the call's audit entry and, for completions, its usage
// event. It outlives a cancelled request: the call happened either way.
func (h *Handler) record(ctx context.Context, c *call) error {
	now := time.Now()
	var tenantID, keyID string
	if c.principal != nil {
		tenantID, keyID = c.principal.TenantID, c.principal.KeyID
	}
	outcome := c.outcome()
	a := gtmgate.AuditEntry{
		Time: c.start, TenantID: tenantID, Action: c.action, Source: gtmgate.SourceChat,
		Key: keyID, Outcome: outcome, Status: c.status, ErrorCode: c.code,
		DurationMS: millis(now.Sub(c.start)), RequestID: c.requestID, Detail: c.model, TraceID: telemetry.TraceID(ctx),
		CorrelationID: c.correlationID,
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(telemetry.GenAIRequestModel.String(c.model), telemetry.TenantID.String(tenantID),
			telemetry.GenAIInputTokens.Int64(c.usage.PromptTokens), telemetry.GenAIOutputTokens.Int64(c.usage.CompletionTokens))
		telemetry.Fail(span, c.code)
	}
	var u *gtmgate.UsageEvent
	if c.action == actionCompletions && c.model != "" && c.code != gtmgate.EQuotaExceeded && c.code != gtmgate.ERateLimited {
		var upstream float64
		if !c.upstreamStart.IsZero() {
			end := c.upstreamEnd
			if end.IsZero() {
				end = now
			}
			upstream = millis(end.Sub(c.upstreamStart))
		}
		u = &gtmgate.UsageEvent{
			Time: c.start, TenantID: tenantID, Key: keyID, Source: gtmgate.SourceChat, Tool: gtmgate.ChatUsageTool,
			Action: c.model, OK: outcome == gtmgate.OutcomeOK, DurationMS: a.DurationMS,
			UpstreamMS: upstream, PromptTokens: c.usage.PromptTokens, CompletionTokens: c.usage.CompletionTokens,
			Reservation: c.quota,
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := h.recorder.Record(rctx, a, u); err != nil {
		h.log.ErrorContext(ctx, "chat: record call", slog.String("request_id", c.requestID),
			slog.String("action", c.action), slog.Any("err", err))
		return err
	}
	return nil
}

// fail records the failed call and answers with e (unless the client is gone).
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, c *call, e *gtmgate.Error) {
	c.code, c.status = e.Code, jsonapi.Status(e.Code)
	if e.Err != nil && e.Code != gtmgate.EClientClosed {
		h.log.WarnContext(r.Context(), "chat: call failed", slog.String("request_id", c.requestID),
			slog.String("action", c.action), slog.String("code", e.Code), slog.Any("err", e.Err))
	}
	h.record(r.Context(), c)
	if e.Code != gtmgate.EClientClosed {
		writeError(w, c.requestID, e)
	}
}
