package mcpgateway

import (
	"context"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// auditedMethods are the session-level requests written to the audit log
// (tools/call is audited by the runner, with its usage). They cost one
// journal append each: no usage event, no store round trip.
var auditedMethods = map[string]string{
	"initialize": "mcp.initialize",
	"tools/list": "mcp.tools_list",
}

// auditSessions returns middleware recording initialize and tools/list with
// the caller's tenant and credential. A record that cannot be kept is logged
// and the request still answered: these calls read, never act.
func auditSessions(rec gtmgate.Recorder) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			action, ok := auditedMethods[method]
			if !ok || rec == nil {
				return next(ctx, method, req)
			}
			start := time.Now()
			res, err := next(ctx, method, req)
			entry := gtmgate.AuditEntry{Time: start, Action: action, Source: gtmgate.SourceMCP, Outcome: gtmgate.OutcomeOK,
				Status: 200, DurationMS: float64(time.Since(start).Microseconds()) / 1000}
			if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
				if p, _ := extra.TokenInfo.Extra[string(principalExtra)].(*gtmgate.Principal); p != nil {
					entry.TenantID, entry.Key, entry.Via = p.TenantID, p.KeyID, p.AuditVia()
				}
				entry.RequestID, _ = extra.TokenInfo.Extra[string(requestIDExtra)].(string)
				entry.CorrelationID, _ = extra.TokenInfo.Extra[string(correlationExtra)].(string)
			}
			if init, ok := req.GetParams().(*mcp.InitializeParams); ok && init.ClientInfo != nil {
				entry.Detail = clip(init.ClientInfo.Name+" "+init.ClientInfo.Version+" protocol "+init.ProtocolVersion, 200)
			}
			if err != nil {
				entry.Outcome, entry.ErrorCode, entry.Status = gtmgate.OutcomeError, gtmgate.EValidation, 400
			}
			if rerr := rec.Record(ctx, entry, nil); rerr != nil {
				jsonapi.LoggerFrom(ctx).Warn("MCP session request not audited", "method", method, "err", rerr)
			}
			return res, err
		}
	}
}

// clip cuts s to at most n bytes.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
