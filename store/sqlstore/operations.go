package sqlstore

import (
	"context"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Heartbeat records that a replica is alive now.
func (s *Store) Heartbeat(ctx context.Context, r gtmgate.Replica) error {
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO replicas (id, hostname, version, started_at, seen_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, version = excluded.version`),
		r.ID, r.Hostname, r.Version, s.t(r.StartedAt.UTC().Truncate(time.Microsecond)), s.t(r.SeenAt.UTC().Truncate(time.Microsecond)))
	if err != nil {
		return s.fail("heartbeat", err)
	}
	return nil
}

// ListReplicas returns the replicas seen at or after since.
func (s *Store) ListReplicas(ctx context.Context, since time.Time) ([]gtmgate.Replica, error) {
	return listRows(ctx, s, "list replicas", "SELECT id, hostname, version, started_at, seen_at FROM replicas WHERE seen_at >= ? ORDER BY id",
		[]any{s.t(since)}, func(r scanner) (gtmgate.Replica, error) {
			var rep gtmgate.Replica
			err := r.Scan(&rep.ID, &rep.Hostname, &rep.Version, timeCol{&rep.StartedAt}, timeCol{&rep.SeenAt})
			return rep, err
		})
}

// ForgetReplica removes a replica's heartbeat.
func (s *Store) ForgetReplica(ctx context.Context, id string) error {
	if _, err := s.write.ExecContext(ctx, s.q("DELETE FROM replicas WHERE id = ?"), id); err != nil {
		return s.fail("forget replica", err)
	}
	return nil
}

// AddHealthSnapshot stores a snapshot.
func (s *Store) AddHealthSnapshot(ctx context.Context, h *gtmgate.HealthSnapshot) error {
	_, err := s.write.ExecContext(ctx, s.q("INSERT INTO health_snapshots (id, taken_at, status, body) VALUES (?, ?, ?, ?)"),
		h.ID, s.t(h.TakenAt.UTC().Truncate(time.Microsecond)), h.Status, string(h.Body))
	if err != nil {
		return s.fail("add health snapshot", err)
	}
	return nil
}

// ListHealthSnapshots returns snapshots from since on, oldest first (the
// latest alone when since is zero).
func (s *Store) ListHealthSnapshots(ctx context.Context, since time.Time, limit int) ([]*gtmgate.HealthSnapshot, error) {
	q := "SELECT id, taken_at, status, body FROM health_snapshots WHERE taken_at >= ? ORDER BY taken_at LIMIT ?"
	args := []any{s.t(since), limit}
	if since.IsZero() {
		q, args = "SELECT id, taken_at, status, body FROM health_snapshots ORDER BY taken_at DESC LIMIT 1", nil
	}
	return listRows(ctx, s, "list health snapshots", q, args, func(r scanner) (*gtmgate.HealthSnapshot, error) {
		var h gtmgate.HealthSnapshot
		var body string
		err := r.Scan(&h.ID, timeCol{&h.TakenAt}, &h.Status, &body)
		h.Body = []byte(body)
		return &h, err
	})
}

// MigrationVersion is the highest migration applied.
func (s *Store) MigrationVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.read.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v); err != nil {
		return 0, s.fail("migration version", err)
	}
	return v, nil
}

// RecentUsage returns every tenant's usage events from since on, the newest
// limit of them.
func (s *Store) RecentUsage(ctx context.Context, since time.Time, limit int) ([]gtmgate.UsageEvent, error) {
	return listRows(ctx, s, "recent usage", `SELECT time, tenant_id, key_id, source, tool, action, ok, duration_ms, upstream_ms,
		prompt_tokens, completion_tokens FROM usage_events WHERE time >= ? ORDER BY time DESC LIMIT ?`, []any{s.t(since), limit},
		func(r scanner) (gtmgate.UsageEvent, error) {
			var u gtmgate.UsageEvent
			err := r.Scan(timeCol{&u.Time}, &u.TenantID, &u.Key, &u.Source, &u.Tool, &u.Action, &u.OK, &u.DurationMS,
				&u.UpstreamMS, &u.PromptTokens, &u.CompletionTokens)
			return u, err
		})
}
