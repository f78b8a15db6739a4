package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// BenchFindTenantToken measures the token lookup done on every
// authenticated request, among 1000 stored tokens.
func BenchFindTenantToken(b *testing.B, s gtmgate.Store) {
	ctx := b.Context()
	if _, err := s.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Status: gtmgate.TenantActive}); err != nil {
		b.Fatal(err)
	}
	hashes := make([]string, 1000)
	for i := range hashes {
		hashes[i] = secret.HashToken(fmt.Sprint("token-", i))
		if err := s.CreateTenantToken(ctx, &gtmgate.TenantToken{ID: fmt.Sprint("t", i), TenantID: "acme",
			Hash: hashes[i], Prefix: "gtm_xxxx", CreatedAt: t0}); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.FindTenantToken(ctx, hashes[i%len(hashes)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchWriteCalls measures one group commit of batch calls (an audit entry
// and a usage event each) and reports the cost per call.
func BenchWriteCalls(b *testing.B, s gtmgate.Store, batch int) {
	ctx := b.Context()
	audit := make([]gtmgate.AuditEntry, batch)
	usage := make([]gtmgate.UsageEvent, batch)
	now := time.Now()
	for i := range audit {
		audit[i] = auditEntry(i, "acme", "crm_contacts.list", gtmgate.SourceMCP, "tok1", gtmgate.OutcomeOK, now)
		usage[i] = gtmgate.UsageEvent{Time: now, TenantID: "acme", Source: gtmgate.SourceMCP, Tool: "crm_contacts",
			Action: "list", OK: true, DurationMS: 12, UpstreamMS: 10}
	}
	for b.Loop() {
		if err := s.WriteCalls(ctx, audit, usage); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/call")
}
