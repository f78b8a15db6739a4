package gtmgate

import "context"

// A correlation id is the client's own name for a call: the X-Request-Id it
// sent. Unlike the request id, which the server makes and which is unique,
// a client may reuse it or pick another tenant's, so it is only ever read
// within one tenant (AuditFilter.CorrelationID needs TenantID).

type correlationIDKey struct{}

// NewContextWithCorrelationID returns ctx carrying the client's correlation id.
func NewContextWithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, correlationIDKey{}, id)
}

// CorrelationIDFromContext returns the client's correlation id, or "".
func CorrelationIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(correlationIDKey{}).(string)
	return id
}
