package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// prunable is one table retention deletes from: rows whose age column is
// before the cut, selected by key (a row value where the key is composite).
type prunable struct {
	table, key, age string
	// keep excludes rows that are never pruned.
	keep string
}

// prunables are the tables of each record kind.
var prunables = map[string][]prunable{
	gtmgate.RecordAudit:       {{table: "audit_log", key: "id", age: "time"}},
	gtmgate.RecordUsageEvents: {{table: "usage_events", key: "id", age: "time"}},
	// An open incident stays until it is resolved, however old.
	gtmgate.RecordLedger: {{table: "error_ledger", key: "id", age: "time", keep: "kind = 'incident' AND status = 'open'"}},
	// Verdicts an operator labelled are the judges' calibration set.
	gtmgate.RecordVerdicts:          {{table: "grader_verdicts", key: "id", age: "time", keep: "labelled"}},
	gtmgate.RecordHealthSnapshots:   {{table: "health_snapshots", key: "id", age: "taken_at"}},
	gtmgate.RecordWebhookDeliveries: {{table: "webhook_deliveries", key: "id", age: "time"}},
	gtmgate.RecordOAuth: {
		{table: "oauth_codes", key: "hash", age: "expires_at"},
		{table: "oauth_connect_codes", key: "hash", age: "expires_at"},
		{table: "oauth_tokens", key: "id", age: "expires_at"},
		// A link abandoned while its person chose accounts holds a sealed
		// grant: it goes like the codes, however it ended.
		{table: "connect_links", key: "id", age: "expires_at"},
	},
	gtmgate.RecordQuotaCounters: {{table: "quota_counters", key: "(tenant_id, period_start, replica)", age: "period_start"}},
	gtmgate.RecordReplicas:      {{table: "replicas", key: "id", age: "seen_at"}},
	gtmgate.RecordConsoleSessions: {
		{table: "console_sessions", key: "hash", age: "expires_at"},
		// Sign-ins abandoned at the IdP go with the sessions they never opened.
		{table: "sso_signins", key: "state_hash", age: "expires_at"},
	},
}

// PruneRecords deletes at most limit rows of kind dated before before. Each
// table is one DELETE of a LIMITed key selection, a short transaction that
// locks only the rows it deletes; the caller repeats until fewer than limit
// go.
func (s *Store) PruneRecords(ctx context.Context, kind string, before time.Time, limit int) (int64, error) {
	tables, ok := prunables[kind]
	if !ok {
		return 0, fmt.Errorf("%s: prune: unknown record kind %q", s.d.Name(), kind)
	}
	var total int64
	for _, p := range tables {
		if total >= int64(limit) {
			break
		}
		cond := p.age + " < ?"
		if p.keep != "" {
			cond += " AND NOT (" + p.keep + ")"
		}
		res, err := s.write.ExecContext(ctx, s.q("DELETE FROM "+p.table+" WHERE "+p.key+" IN (SELECT "+strings.Trim(p.key, "()")+" FROM "+
			p.table+" WHERE "+cond+" LIMIT ?)"), s.t(before), limit-int(total))
		if err != nil {
			return total, s.fail("prune "+p.table, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, s.fail("prune "+p.table, err)
		}
		total += n
	}
	return total, nil
}
